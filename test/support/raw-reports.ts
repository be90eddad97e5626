/**
 * The reports computed straight from the raw rows, as they were before the summary data existed:
 * the reference the summary-based reports are compared with (src/summaries/summaries.test.ts).
 * Kept in the tests only; the server never runs these.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../src/db/schema';
import { deliveryRecord, type DeliveryRecord } from '../../src/sales/repository';
import { keyConditions, type ResolvedFilters } from '../../src/sales/report-filters';
import { inValues } from '../../src/db/sql-in';

type Db = Kysely<Database>;

/** The filters on a document (invoice or order) and its lines, as the reports applied them to raw rows. */
function filterConditions(
  f: ResolvedFilters,
  c: { officer: string; profitCenter: string; date: string; customer: string; category: string },
): Expression<SqlBool>[] {
  const conditions = keyConditions(f, c);
  if (f.dates.from !== undefined) conditions.push(sql<SqlBool>`${sql.ref(c.date)} >= ${f.dates.from}`);
  if (f.dates.to !== undefined) conditions.push(sql<SqlBool>`${sql.ref(c.date)} <= ${f.dates.to}`);
  if (f.categories !== undefined) conditions.push(inValues(c.category, f.categories));
  return conditions;
}

// ---- sales summary ----------------------------------------------------------------------------

export async function rawSalesPerCustomer(db: Db, filters: ResolvedFilters) {
  const conditions = filterConditions(filters, {
    officer: 'i.sales_officer_id',
    profitCenter: 'i.profit_center_code',
    date: 'i.invoice_date',
    customer: 'i.customer_code',
    category: 'l.category_code',
  });
  const perInvoice = db
    .selectFrom('invoices as i')
    .innerJoin('invoice_lines as l', 'l.invoice_no', 'i.invoice_no')
    .where((eb) => eb.and(conditions))
    .groupBy(['i.invoice_no', 'i.customer_code'])
    .select((eb) => [
      'i.customer_code',
      eb.fn.sum<number>('l.quantity').as('quantity'),
      eb.fn.sum<number>('l.value').as('value_minor'),
    ]);
  const perCustomer = db
    .selectFrom(perInvoice.as('y'))
    .groupBy('y.customer_code')
    .select((eb) => [
      'y.customer_code',
      eb.fn.countAll<number>().as('invoice_count'),
      eb.fn.sum<number>('y.quantity').as('quantity'),
      eb.fn.sum<number>('y.value_minor').as('value_minor'),
    ]);
  const rows = await db
    .selectFrom(perCustomer.as('x'))
    .innerJoin('customers as c', 'c.code', 'x.customer_code')
    .innerJoin('states as s', 's.code', 'c.state_code')
    .select([
      'c.code',
      'c.name',
      'c.state_code',
      's.zone_code',
      'c.sales_officer_id',
      'x.invoice_count',
      'x.quantity',
      'x.value_minor',
    ])
    .execute();
  // PostgreSQL hands count/sum back as int8/numeric; engine.ts parses them, Number() makes it explicit.
  return rows.map((r) => ({
    ...r,
    invoice_count: Number(r.invoice_count),
    quantity: Number(r.quantity),
    value_minor: Number(r.value_minor),
  }));
}

// ---- order versus delivery ---------------------------------------------------------------------

/**
 * A query creator with the CTE `line_deliveries`: one row per matching order line with what was
 * delivered against it. The matching order lines are collected first (materialized), so the order
 * date, officer and customer indexes choose them rather than a scan of every order line in key order;
 * their deliveries are then found through the invoice-line index on (order_no, order_line_no).
 * `officers` limits the orders to those officers' (the officer report's scope); undefined = no limit.
 */
export function withLineDeliveries(db: Kysely<Database>, filters: ResolvedFilters, officers?: string[]) {
  const conditions: Expression<SqlBool>[] = filterConditions(filters, {
    officer: 'o.sales_officer_id',
    profitCenter: 'o.profit_center_code',
    date: 'o.order_date',
    customer: 'o.customer_code',
    category: 'ol.category_code',
  });
  if (officers !== undefined) conditions.push(inValues('o.sales_officer_id', officers));
  const upTo = filters.dates.to;
  // Deliveries after the end of the range do not count; only then is the invoice read for its date.
  const delivered = (column: 'quantity' | 'value') =>
    upTo === undefined
      ? sql<number>`coalesce(sum(${sql.ref(`il.${column}`)}), 0)`
      : sql<number>`coalesce(sum(case when i.invoice_date <= ${upTo} then ${sql.ref(`il.${column}`)} end), 0)`;
  return db
    .with(
      (cte) => cte('ordered_lines').materialized(),
      (qb) =>
        qb
          .selectFrom('orders as o')
          .innerJoin('order_lines as ol', 'ol.order_no', 'o.order_no')
          .where('o.status', '!=', 'CANCELLED')
          .where((eb) => eb.and(conditions))
          .select(['o.customer_code', 'o.sales_officer_id', 'ol.order_no', 'ol.line_no', 'ol.quantity', 'ol.value']),
    )
    .with('line_deliveries', (qb) =>
      qb
        .selectFrom('ordered_lines as l')
        .leftJoin('invoice_lines as il', (join) =>
          join.onRef('il.order_no', '=', 'l.order_no').onRef('il.order_line_no', '=', 'l.line_no'),
        )
        .$if(upTo !== undefined, (q) => q.leftJoin('invoices as i', 'i.invoice_no', 'il.invoice_no'))
        .groupBy(['l.order_no', 'l.line_no', 'l.customer_code', 'l.sales_officer_id', 'l.quantity', 'l.value'])
        .select([
          'l.customer_code',
          'l.sales_officer_id',
          'l.quantity as ordered_quantity',
          'l.value as ordered_value',
          delivered('quantity').as('delivered_quantity'),
          delivered('value').as('delivered_value'),
        ]),
    );
}

/** Aggregates of `line_deliveries as x` rows (see withLineDeliveries), for a GROUP BY over them. */
export const measureSums = [
  sql<number>`sum(x.ordered_quantity)`.as('ordered_quantity'),
  sql<number>`sum(x.ordered_value)`.as('ordered_value'),
  sql<number>`sum(x.delivered_quantity)`.as('delivered_quantity'),
  sql<number>`sum(x.delivered_value)`.as('delivered_value'),
  sql<number>`sum(case when x.ordered_quantity > x.delivered_quantity then x.ordered_quantity - x.delivered_quantity else 0 end)`.as(
    'pending_quantity',
  ),
  sql<number>`sum(case when x.ordered_value > x.delivered_value then x.ordered_value - x.delivered_value else 0 end)`.as(
    'pending_value',
  ),
] as const;

export async function rawDeliveriesPerCustomer(db: Db, filters: ResolvedFilters) {
  const rows = await withLineDeliveries(db, filters)
    .selectFrom((eb) =>
      eb
        .selectFrom('line_deliveries as x')
        .groupBy('x.customer_code')
        .select(['x.customer_code', ...measureSums])
        .as('t'),
    )
    .innerJoin('customers as c', 'c.code', 't.customer_code')
    .innerJoin('states as s', 's.code', 'c.state_code')
    .selectAll('t')
    .select(['c.code', 'c.name', 'c.state_code', 's.zone_code'])
    .execute();
  return rows.map((r) => ({
    code: r.code,
    name: r.name,
    state_code: r.state_code,
    zone_code: r.zone_code,
    ...deliveryRecord(r),
  }));
}
export async function rawDeliveriesPerOfficer(
  db: Db,
  filters: ResolvedFilters,
  officers: string[] | undefined,
): Promise<Map<string, DeliveryRecord>> {
  const rows = await withLineDeliveries(db, filters, officers)
    .selectFrom('line_deliveries as x')
    .groupBy('x.sales_officer_id')
    .select(['x.sales_officer_id', ...measureSums])
    .execute();
  return new Map(rows.map((r) => [r.sales_officer_id, deliveryRecord(r)]));
}

// ---- ledger and dashboard ----------------------------------------------------------------------

export async function rawBalancesBefore(
  db: Db,
  upperCodes: readonly string[] | undefined,
  beforeDate: string,
  customerOfficers?: readonly string[],
): Promise<{ code: string; name: string; balance: number }[]> {
  if (upperCodes?.length === 0 || customerOfficers?.length === 0) return [];
  let query = db
    .selectFrom('customers')
    .leftJoin('ledger_entries', (join) =>
      join
        .onRef('ledger_entries.customer_code', '=', 'customers.code')
        .on('ledger_entries.entry_date', '<', beforeDate),
    )
    .select((eb) => [
      'customers.code',
      'customers.name',
      eb.fn
        .coalesce(eb.fn.sum<number>(eb('ledger_entries.debit', '-', eb.ref('ledger_entries.credit'))), eb.lit(0))
        .as('balance'),
    ])
    .groupBy(['customers.code', 'customers.name'])
    .orderBy('customers.code');
  if (upperCodes !== undefined) query = query.where((eb) => eb(eb.fn('upper', ['customers.code']), 'in', upperCodes));
  if (customerOfficers !== undefined) query = query.where('customers.sales_officer_id', 'in', customerOfficers);
  const rows = await query.execute();
  // PostgreSQL's sum(bigint) is numeric; the engine hands numerics back as numbers, SQLite as integers.
  return rows.map((r) => ({ code: r.code, name: r.name, balance: Number(r.balance) }));
}

/** `column` is the customer of a scope officer (undefined officers = every customer). */
function inScope(column: string, officers: string[] | undefined): Expression<SqlBool> {
  if (officers === undefined) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.ref(column)} in (select code from customers where ${inValues('sales_officer_id', officers)})`;
}

export async function rawSalesTotals(
  db: Db,
  officers: string[] | undefined,
  p: { asOf: string; monthStart: string; yearStart: string },
): Promise<{ mtd: number; ytd: number }> {
  const row = await db
    .selectFrom('invoices')
    .where('invoice_date', '>=', p.yearStart)
    .where('invoice_date', '<=', p.asOf)
    .where(inScope('customer_code', officers))
    .select([
      sql<number>`coalesce(sum(case when invoice_date >= ${p.monthStart} then amount else 0 end), 0)`.as('mtd'),
      sql<number>`coalesce(sum(amount), 0)`.as('ytd'),
    ])
    .executeTakeFirstOrThrow();
  return { mtd: Number(row.mtd), ytd: Number(row.ytd) };
}

/**
 * OPEN orders up to AsOf, collected first (materialized: the few open orders, not every order line
 * in key order), their lines' deliveries invoiced up to AsOf, what each line still owes, per order.
 */
export async function rawPendingOrders(
  db: Db,
  officers: string[] | undefined,
  asOf: string,
): Promise<{ orders: number; value: number }> {
  const row = await db
    .with(
      (cte) => cte('open_lines').materialized(),
      (qb) =>
        qb
          .selectFrom('orders as o')
          .innerJoin('order_lines as ol', 'ol.order_no', 'o.order_no')
          .where('o.status', '=', 'OPEN')
          .where('o.order_date', '<=', asOf)
          .where(inScope('o.customer_code', officers))
          .select(['ol.order_no', 'ol.line_no', 'ol.quantity', 'ol.value']),
    )
    .with('owed_lines', (qb) =>
      qb
        .selectFrom('open_lines as l')
        .leftJoin('invoice_lines as il', (join) =>
          join.onRef('il.order_no', '=', 'l.order_no').onRef('il.order_line_no', '=', 'l.line_no'),
        )
        .leftJoin('invoices as i', 'i.invoice_no', 'il.invoice_no')
        .groupBy(['l.order_no', 'l.line_no', 'l.quantity', 'l.value'])
        .select([
          'l.order_no',
          sql<number>`l.quantity - coalesce(sum(case when i.invoice_date <= ${asOf} then il.quantity end), 0)`.as(
            'owed_quantity',
          ),
          sql<number>`l.value - coalesce(sum(case when i.invoice_date <= ${asOf} then il.value end), 0)`.as(
            'owed_value',
          ),
        ]),
    )
    .selectFrom((eb) =>
      eb
        .selectFrom('owed_lines as x')
        .groupBy('x.order_no')
        .having(sql<SqlBool>`sum(case when x.owed_quantity > 0 then x.owed_quantity else 0 end) > 0`)
        .select(sql<number>`sum(case when x.owed_value > 0 then x.owed_value else 0 end)`.as('pending_value'))
        .as('p'),
    )
    .select([sql<number>`count(*)`.as('orders'), sql<number>`coalesce(sum(p.pending_value), 0)`.as('value')])
    .executeTakeFirstOrThrow();
  return { orders: Number(row.orders), value: Number(row.value) };
}

export async function rawCollectionsTotal(
  db: Db,
  officers: string[] | undefined,
  p: { asOf: string; monthStart: string; yearStart: string },
): Promise<number> {
  const row = await db
    .selectFrom('receipts')
    .where('receipt_date', '>=', p.monthStart)
    .where('receipt_date', '<=', p.asOf)
    .where(inScope('customer_code', officers))
    .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function rawOutstandingTotal(db: Db, officers: string[] | undefined, asOf: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .where('entry_date', '<=', asOf)
    .where(inScope('customer_code', officers))
    .select(sql<number>`coalesce(sum(debit), 0) - coalesce(sum(credit), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
