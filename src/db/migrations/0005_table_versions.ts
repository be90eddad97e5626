/**
 * A version per table, changed by triggers in the transaction of every write, whoever writes: the
 * answer cache keeps an answer under the versions of the tables it read (docs/operations.md). Random,
 * not a counter, so a database restored from a backup never repeats a version a kept answer carries.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { addTableVersion } from './table-version';

/** Every table of the schema at this migration, but the credentials (0002). */
const TABLES = [
  'zones',
  'states',
  'profit_centers',
  'product_categories',
  'products',
  'users',
  'customers',
  'customer_profit_centers',
  'orders',
  'order_lines',
  'invoices',
  'invoice_lines',
  'receipts',
  'ledger_entries',
  'pcn',
  'pcn_invoices',
  'pcn_debit_notes',
  'enquiries',
  'activities',
  'complaints',
  'warranty_requests',
  'warranty_files',
  'counters',
  'sales_period_totals',
  'sales_period_categories',
  'sales_period_category_sets',
  'sales_category_sets',
  'order_period_totals',
  'order_period_categories',
  'order_delivery_events',
  'open_order_balances',
  'open_order_deliveries',
  'ledger_month_balances',
  'receipt_period_totals',
  'summary_facts',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('table_versions')
    .addColumn('table_name', 'text', (c) => c.primaryKey())
    .addColumn('version', postgres ? 'text' : 'integer', (c) => c.notNull())
    .execute();
  if (postgres) {
    // The schema is the written table's own, so a manual fix from a session of another search_path
    // changes the right version.
    await sql`
      create function bump_table_version() returns trigger language plpgsql as $$
      begin
        execute format('update %I.table_versions set version = gen_random_uuid()::text where table_name = %L', TG_TABLE_SCHEMA, TG_TABLE_NAME);
        return null;
      end
      $$`.execute(db);
  }
  for (const table of TABLES) await addTableVersion(db, table);
}
