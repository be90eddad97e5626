/**
 * The summary data the reports read instead of raw lines (docs/summaries.md: measures per day, month
 * and year), and indexes for the case-insensitive code lookups and the streamed lists.
 */
import { sql, type ColumnDataType, type Kysely } from 'kysely';
import type { ColumnTypes } from '../engine';

const PERIOD_KEY = ['period_kind', 'period_start', 'customer_code', 'profit_center_code', 'sales_officer_id'];
/** The second index of every period table: reports that pick customers read them through it, and a refresh deletes them. */
const CUSTOMER_PERIOD = ['customer_code', 'period_kind', 'period_start'];

/** A table of sales or order measures per period: the period key and `keys`, then `measures`, all not null. */
async function createPeriodTable(
  db: Kysely<unknown>,
  t: ColumnTypes,
  table: string,
  keys: string[],
  measures: string[],
): Promise<void> {
  const columns: [string, ColumnDataType][] = [
    ['period_kind', 'text'],
    ['period_start', t.date],
    ['customer_code', 'text'],
    ['profit_center_code', 'text'],
    ['sales_officer_id', 'text'],
    ...keys.map((key): [string, ColumnDataType] => [key, 'text']),
    ...measures.map((measure): [string, ColumnDataType] => [measure, t.money]),
  ];
  let create = db.schema.createTable(table);
  for (const [name, type] of columns) create = create.addColumn(name, type, (c) => c.notNull());
  await create.addPrimaryKeyConstraint(`${table}_pk`, [...PERIOD_KEY, ...keys] as never).execute();
  await db.schema.createIndex(`${table}_customer`).on(table).columns(CUSTOMER_PERIOD).execute();
}

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const s = db.schema;

  // Codes compare without regard to case (docs/behaviour.md): the lookups ask for upper(code).
  await s
    .createIndex('customers_code_upper')
    .on('customers')
    .expression(sql`upper(code)`)
    .execute();
  await s
    .createIndex('users_id_upper')
    .on('users')
    .expression(sql`upper(id)`)
    .execute();
  await s
    .createIndex('profit_centers_code_upper')
    .on('profit_centers')
    .expression(sql`upper(code)`)
    .execute();
  // The streamed lists read newest first: with these the first rows come off the index at once
  // instead of after a sort of the whole table.
  await s.createIndex('pcn_date').on('pcn').columns(['pcn_date', 'pdc_id']).execute();
  await s.createIndex('activities_date').on('activities').columns(['activity_date', 'activity_no']).execute();
  await s.createIndex('complaints_date').on('complaints').columns(['complaint_date', 'complaint_no']).execute();
  // The dashboard's outstanding balance reads the entries of the current month company-wide.
  await s
    .createIndex('ledger_entries_date')
    .on('ledger_entries')
    .columns(['entry_date', 'customer_code', 'debit', 'credit'])
    .execute();

  // Whole invoices per period, customer, profit center and invoice officer: the reports without a
  // category filter and the dashboard's sales.
  await createPeriodTable(db, t, 'sales_period_totals', [], ['invoice_count', 'quantity', 'value', 'amount']);

  // Invoice lines per category: quantity and value under a category filter.
  await createPeriodTable(db, t, 'sales_period_categories', ['category_code'], ['quantity', 'value']);

  // Invoices counted per set of categories on them (',A,B,'): an invoice counts once under a
  // category filter when any of its categories is chosen, however many of them are.
  await createPeriodTable(db, t, 'sales_period_category_sets', ['category_set'], ['invoice_count']);
  await s
    .createTable('sales_category_sets')
    .addColumn('category_set', 'text', (c) => c.primaryKey())
    .execute();

  // Order lines (not CANCELLED) per order-date period: ordered, and everything ever delivered against
  // them; "capped" is delivered counted at most up to what the line ordered, so pending = ordered - capped.
  // Summed over all categories (order_period_totals) and per category (order_period_categories).
  const orderMeasures = [
    'ordered_quantity',
    'ordered_value',
    'delivered_quantity',
    'delivered_value',
    'capped_quantity',
    'capped_value',
  ];
  await createPeriodTable(db, t, 'order_period_totals', [], orderMeasures);
  await createPeriodTable(db, t, 'order_period_categories', ['category_code'], orderMeasures);

  // Deliveries per order date and delivery date: what a report ending on ToDate takes back out of
  // the period sums (the deliveries after ToDate of orders placed by then).
  await s
    .createTable('order_delivery_events')
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
    .addPrimaryKeyConstraint('order_delivery_events_pk', [
      'order_date',
      'delivery_date',
      'customer_code',
      'profit_center_code',
      'sales_officer_id',
      'category_code',
    ])
    .execute();
  await s
    .createIndex('order_delivery_events_customer')
    .on('order_delivery_events')
    .columns(['customer_code', 'order_date'])
    .execute();

  // OPEN orders (the dashboard's PendingOrders): what each ordered and, per line at most up to that,
  // got delivered; and per delivery date how much of that came then, to take back out for an AsOf.
  await s
    .createTable('open_order_balances')
    .addColumn('order_no', 'text', (c) => c.primaryKey())
    .addColumn('order_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('ordered_quantity', t.money, (c) => c.notNull())
    .addColumn('ordered_value', t.money, (c) => c.notNull())
    .addColumn('capped_quantity', t.money, (c) => c.notNull())
    .addColumn('capped_value', t.money, (c) => c.notNull())
    .execute();
  await s.createIndex('open_order_balances_customer').on('open_order_balances').column('customer_code').execute();
  await s
    .createTable('open_order_deliveries')
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('delivery_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('capped_quantity', t.money, (c) => c.notNull())
    .addColumn('capped_value', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('open_order_deliveries_pk', ['order_no', 'delivery_date'])
    .execute();
  await s
    .createIndex('open_order_deliveries_date')
    .on('open_order_deliveries')
    .columns(['delivery_date', 'order_no', 'capped_quantity', 'capped_value'])
    .execute();
  await s.createIndex('open_order_deliveries_customer').on('open_order_deliveries').column('customer_code').execute();

  // Each customer's ledger balance at the end of every month from its first entry to the last month
  // with any entry (the horizon): an opening balance is one row.
  await s
    .createTable('ledger_month_balances')
    .addColumn('month_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('closing_balance', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('ledger_month_balances_pk', ['month_start', 'customer_code'])
    .execute();
  await s
    .createIndex('ledger_month_balances_customer')
    .on('ledger_month_balances')
    .columns(['customer_code', 'month_start'])
    .execute();

  // Receipts per period and customer: the dashboard's collections.
  await s
    .createTable('receipt_period_totals')
    .addColumn('period_kind', 'text', (c) => c.notNull())
    .addColumn('period_start', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull())
    .addColumn('amount', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('receipt_period_totals_pk', ['period_kind', 'period_start', 'customer_code'])
    .execute();
  await s.createIndex('receipt_period_totals_customer').on('receipt_period_totals').columns(CUSTOMER_PERIOD).execute();

  // Facts about the summaries: the longest delivery lag in days, the ledger horizon month.
  await s
    .createTable('summary_facts')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
