/**
 * Summary data the reports read instead of raw lines (docs/summaries.md), indexes for the
 * case-insensitive code lookups, and the date indexes the streamed lists are read through.
 *
 * Sales and order measures are kept per period at three grains (period_kind D = a day, M = a
 * calendar month, Y = a calendar year; period_start is the first day), so any date range is read as
 * whole years, whole months and single days: a handful of rows per customer instead of every line.
 * Every table is derived from the raw rows alone and is rebuilt by `npm run summaries -- rebuild`.
 */
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../engine';

const PERIOD_KEY = ['period_kind', 'period_start', 'customer_code', 'profit_center_code', 'sales_officer_id'] as const;
/**
 * The second index of every period table: a customer's rows of one grain and range. A report whose
 * filters pick customers (a range, zones, states, the user's scope) reads those customers through it,
 * and a refresh deletes one customer's rows through it.
 */
const CUSTOMER_PERIOD = ['customer_code', 'period_kind', 'period_start'];

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const s = db.schema;

  // Codes compare without regard to case (docs/behaviour.md): the lookups ask for upper(code).
  await s.createIndex('customers_code_upper').on('customers').expression(sql`upper(code)`).execute();
  await s.createIndex('users_id_upper').on('users').expression(sql`upper(id)`).execute();
  await s.createIndex('profit_centers_code_upper').on('profit_centers').expression(sql`upper(code)`).execute();
  // The streamed lists read newest first: with these the first rows come off the index at once
  // instead of after a sort of the whole table.
  await s.createIndex('pcn_date').on('pcn').columns(['pcn_date', 'pdc_id']).execute();
  await s.createIndex('activities_date').on('activities').columns(['activity_date', 'activity_no']).execute();
  await s.createIndex('complaints_date').on('complaints').columns(['complaint_date', 'complaint_no']).execute();
  // The dashboard's outstanding balance reads the entries of the current month company-wide.
  await s.createIndex('ledger_entries_date').on('ledger_entries').columns(['entry_date', 'customer_code', 'debit', 'credit']).execute();

  // Whole invoices per period, customer, profit center and invoice officer: the reports without a
  // category filter and the dashboard's sales.
  await s.createTable('sales_period_totals')
    .addColumn('period_kind', 'text', (c) => c.notNull())
    .addColumn('period_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('profit_center_code', 'text', (c) => c.notNull())
    .addColumn('sales_officer_id', 'text', (c) => c.notNull())
    .addColumn('invoice_count', t.money, (c) => c.notNull())
    .addColumn('quantity', t.money, (c) => c.notNull())
    .addColumn('value', t.money, (c) => c.notNull())
    .addColumn('amount', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_period_totals_pk', [...PERIOD_KEY])
    .execute();
  await s.createIndex('sales_period_totals_customer').on('sales_period_totals').columns(CUSTOMER_PERIOD).execute();

  // Invoice lines per category: quantity and value under a category filter.
  await s.createTable('sales_period_categories')
    .addColumn('period_kind', 'text', (c) => c.notNull())
    .addColumn('period_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('profit_center_code', 'text', (c) => c.notNull())
    .addColumn('sales_officer_id', 'text', (c) => c.notNull())
    .addColumn('category_code', 'text', (c) => c.notNull())
    .addColumn('quantity', t.money, (c) => c.notNull())
    .addColumn('value', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_period_categories_pk', [...PERIOD_KEY, 'category_code'])
    .execute();
  await s.createIndex('sales_period_categories_customer').on('sales_period_categories').columns(CUSTOMER_PERIOD).execute();

  // Invoices counted per set of categories on them (',A,B,'): an invoice counts once under a
  // category filter when any of its categories is chosen, however many of them are.
  await s.createTable('sales_period_category_sets')
    .addColumn('period_kind', 'text', (c) => c.notNull())
    .addColumn('period_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('profit_center_code', 'text', (c) => c.notNull())
    .addColumn('sales_officer_id', 'text', (c) => c.notNull())
    .addColumn('category_set', 'text', (c) => c.notNull())
    .addColumn('invoice_count', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('sales_period_category_sets_pk', [...PERIOD_KEY, 'category_set'])
    .execute();
  await s.createIndex('sales_period_category_sets_customer').on('sales_period_category_sets').columns(CUSTOMER_PERIOD).execute();
  await s.createTable('sales_category_sets')
    .addColumn('category_set', 'text', (c) => c.primaryKey())
    .execute();

  // Order lines (not CANCELLED) per order-date period: ordered, and everything ever delivered against
  // them; "capped" is delivered counted at most up to what the line ordered, so pending = ordered - capped.
  // Summed over all categories (order_period_totals) and per category (order_period_categories).
  for (const [table, category] of [['order_period_totals', false], ['order_period_categories', true]] as const) {
    let create = s.createTable(table)
      .addColumn('period_kind', 'text', (c) => c.notNull())
      .addColumn('period_start', t.date, (c) => c.notNull())
      .addColumn('customer_code', 'text', (c) => c.notNull())
      .addColumn('profit_center_code', 'text', (c) => c.notNull())
      .addColumn('sales_officer_id', 'text', (c) => c.notNull());
    if (category) create = create.addColumn('category_code', 'text', (c) => c.notNull());
    await create
      .addColumn('ordered_quantity', t.money, (c) => c.notNull())
      .addColumn('ordered_value', t.money, (c) => c.notNull())
      .addColumn('delivered_quantity', t.money, (c) => c.notNull())
      .addColumn('delivered_value', t.money, (c) => c.notNull())
      .addColumn('capped_quantity', t.money, (c) => c.notNull())
      .addColumn('capped_value', t.money, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, (category ? [...PERIOD_KEY, 'category_code'] : [...PERIOD_KEY]) as never)
      .execute();
    await s.createIndex(`${table}_customer`).on(table).columns(CUSTOMER_PERIOD).execute();
  }

  // Deliveries per order date and delivery date: what a report ending on ToDate takes back out of
  // the period sums (the deliveries after ToDate of orders placed by then).
  await s.createTable('order_delivery_events')
    .addColumn('order_date', t.date, (c) => c.notNull())
    .addColumn('delivery_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('profit_center_code', 'text', (c) => c.notNull())
    .addColumn('sales_officer_id', 'text', (c) => c.notNull())
    .addColumn('category_code', 'text', (c) => c.notNull())
    .addColumn('delivered_quantity', t.money, (c) => c.notNull())
    .addColumn('delivered_value', t.money, (c) => c.notNull())
    .addColumn('capped_quantity', t.money, (c) => c.notNull())
    .addColumn('capped_value', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('order_delivery_events_pk', ['order_date', 'delivery_date', 'customer_code', 'profit_center_code', 'sales_officer_id', 'category_code'])
    .execute();
  await s.createIndex('order_delivery_events_customer').on('order_delivery_events').columns(['customer_code', 'order_date']).execute();

  // OPEN orders (the dashboard's PendingOrders): what each ordered and, per line at most up to that,
  // got delivered; and per delivery date how much of that came then, to take back out for an AsOf.
  await s.createTable('open_order_balances')
    .addColumn('order_no', 'text', (c) => c.primaryKey())
    .addColumn('order_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('ordered_quantity', t.money, (c) => c.notNull())
    .addColumn('ordered_value', t.money, (c) => c.notNull())
    .addColumn('capped_quantity', t.money, (c) => c.notNull())
    .addColumn('capped_value', t.money, (c) => c.notNull())
    .execute();
  await s.createIndex('open_order_balances_customer').on('open_order_balances').column('customer_code').execute();
  await s.createTable('open_order_deliveries')
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('delivery_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('capped_quantity', t.money, (c) => c.notNull())
    .addColumn('capped_value', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('open_order_deliveries_pk', ['order_no', 'delivery_date'])
    .execute();
  await s.createIndex('open_order_deliveries_date').on('open_order_deliveries').columns(['delivery_date', 'order_no', 'capped_quantity', 'capped_value']).execute();
  await s.createIndex('open_order_deliveries_customer').on('open_order_deliveries').column('customer_code').execute();

  // Each customer's ledger balance at the end of every month from its first entry to the last month
  // with any entry (the horizon): an opening balance is one row.
  await s.createTable('ledger_month_balances')
    .addColumn('month_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('closing_balance', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_month_balances_pk', ['month_start', 'customer_code'])
    .execute();
  await s.createIndex('ledger_month_balances_customer').on('ledger_month_balances').columns(['customer_code', 'month_start']).execute();

  // Receipts per period and customer: the dashboard's collections.
  await s.createTable('receipt_period_totals')
    .addColumn('period_kind', 'text', (c) => c.notNull())
    .addColumn('period_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('amount', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('receipt_period_totals_pk', ['period_kind', 'period_start', 'customer_code'])
    .execute();
  await s.createIndex('receipt_period_totals_customer').on('receipt_period_totals').columns(CUSTOMER_PERIOD).execute();

  // Facts about the summaries: the longest delivery lag in days, the ledger horizon month.
  await s.createTable('summary_facts')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
