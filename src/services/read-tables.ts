/**
 * Written by npm run read-tables (scripts/read-tables.ts); do not edit. The tables each read of the
 * registry reads, as SQLite opened them on the demo data: the answer cache keeps its answers under their
 * versions. A read outside the registry (an embedder's) names its own (ReadDefinition.reads).
 */
import type { TableName } from '../db/schema';

export const READ_TABLES: Readonly<Partial<Record<string, readonly TableName[]>>> = {
  ActivityReportAndComplaints: ['activities', 'complaints', 'customers', 'products'],
  FillAreaManagers: ['users'],
  FillProfitCenterForCustomer: ['customer_profit_centers', 'customers', 'profit_centers'],
  SyncWarrantyReqList: ['warranty_files', 'warranty_requests'],
  getCollectionStatements: ['customers', 'receipts', 'users'],
  getOpeningBalance: ['customers', 'ledger_month_balances', 'summary_facts'],
  getOrderVDeliverySummaryRecords: ['customers', 'order_delivery_events', 'order_period_categories', 'order_period_totals', 'product_categories', 'profit_centers', 'states', 'summary_facts', 'users'],
  getOrderVsDeliveryOfficer: ['customers', 'order_delivery_events', 'order_period_totals', 'states', 'summary_facts', 'users'],
  getPCNDebitNotes: ['customers', 'pcn', 'pcn_debit_notes'],
  getPCNDetails: ['customers', 'pcn', 'pcn_debit_notes', 'pcn_invoices'],
  getPCNInvoices: ['customers', 'invoices', 'pcn', 'pcn_invoices'],
  getPCNList: ['customers', 'pcn', 'users'],
  getSalesReportStats: ['activities', 'customers', 'ledger_entries', 'ledger_month_balances', 'open_order_balances', 'open_order_deliveries', 'receipt_period_totals', 'sales_period_totals', 'summary_facts', 'users', 'warranty_requests'],
  getSalesSummaryRecords: ['customers', 'product_categories', 'profit_centers', 'sales_category_sets', 'sales_period_categories', 'sales_period_category_sets', 'sales_period_totals', 'states', 'users'],
};
