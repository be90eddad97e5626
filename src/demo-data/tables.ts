/** The tables the demo data fills, parents before children (the order inserts need; deletes go backwards). */
import type { TableName } from '../db/schema';

export type SeededTable = Exclude<TableName, 'counters'>;

export const SEEDED_TABLES: SeededTable[] = [
  'zones', 'states', 'profit_centers', 'product_categories', 'products', 'users', 'customers', 'customer_profit_centers',
  'orders', 'order_lines', 'invoices', 'invoice_lines', 'receipts', 'pcn', 'pcn_invoices', 'pcn_debit_notes',
  'ledger_entries', 'activities', 'enquiries', 'complaints', 'warranty_requests', 'warranty_files',
];
