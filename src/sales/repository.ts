/**
 * The sales area's queries. The reports sum a few summary rows per customer (docs/summaries.md)
 * instead of every invoice or order line; the dashboard asks one aggregate per figure.
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { closingMonthBefore } from '../collections/balance-reads';
import type { Database } from '../db/schema';
import { summarySql } from '../summaries/engine-sql';
import { inSpans, periodSpans } from '../summaries/periods';
import { maxDeliveryLag } from '../summaries/upkeep';
import { keyConditions, type ResolvedFilters } from './report-filters';
import { inValues } from '../db/sql-in';

type Db = Kysely<Database>;

// ---- the reports ----------------------------------------------------------------------------------

/** A customer as the per-customer reports show it, under the answer's names, and the column each field comes from. */
const CUSTOMER_COLUMNS = {
  CustomerCode: 'c.code',
  CustomerName: 'c.name',
  StateCode: 'c.state_code',
  ZoneCode: 'st.zone_code',
  /** The customer's own officer (who owns the account today). */
  SalesOfficer: 'c.sales_officer_id',
} as const;
export type CustomerColumns = Record<keyof typeof CUSTOMER_COLUMNS, string>;

/** Summed sales of one customer, the value in minor units. */
const SALES_MEASURES = ['InvoiceCount', 'Quantity', 'Value'] as const;
export type SalesMeasure = (typeof SALES_MEASURES)[number];

/** The order a report shows its rows in, ties by customer code: SQL returns them so (reports.ts, sortedReport). */
export interface SqlOrder<C extends string> {
  column: C;
  descending: boolean;
}

/** Joins the customer's columns to rows summed per customer (`customer_code`, one row each). */
function withCustomerColumns<M extends string>(perCustomer: RawBuilder<unknown>, measures: readonly M[]) {
  return sql`
    select ${sql.join(Object.entries(CUSTOMER_COLUMNS).map(([name, column]) => sql`${sql.ref(column)} as ${sql.ref(name)}`))}, ${sql.join(measures.map((m) => sql.ref(`x.${m}`)))}
    from (${perCustomer}) x
    join customers c on c.code = x.customer_code
    join states st on st.code = c.state_code`;
}

/** A per-customer report's rows in the order asked for, text by code point: a select every driver can stream. */
export function inOrder<R>(db: Db, query: RawBuilder<R>, order: SqlOrder<string>) {
  const s = summarySql(db);
  const column = sql.ref(`r.${order.column}`);
  const key = order.column in CUSTOMER_COLUMNS ? s.byCodePoint(column) : column;
  return db
    .selectFrom(sql<R>`(${query})`.as('r'))
    .selectAll()
    .orderBy(key, order.descending ? 'desc' : 'asc')
    .orderBy(s.byCodePoint(sql.ref('r.CustomerCode')));
}

type Numeric = number | string;

/** The filters other than dates and categories, on a summary table's columns (alias `alias`). */
function summaryKeyConditions(filters: ResolvedFilters, alias: string): Expression<SqlBool>[] {
  return keyConditions(filters, {
    officer: `${alias}.sales_officer_id`,
    profitCenter: `${alias}.profit_center_code`,
    customer: `${alias}.customer_code`,
  });
}

function all(conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return conditions.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

/**
 * getSalesSummaryRecords' sums per customer (src/summaries/summaries.test.ts holds them to the raw rows);
 * undefined when no customer can match. With a category filter, the chosen categories' lines, and each
 * invoice with any of them counted once (its category set).
 */
export async function salesPerCustomerQuery(
  db: Db,
  filters: ResolvedFilters,
): Promise<RawBuilder<CustomerSalesSums> | undefined> {
  const s = summarySql(db);
  const spans = periodSpans(filters.dates.from, filters.dates.to);
  let perCustomer: RawBuilder<unknown>;
  if (filters.categories === undefined) {
    perCustomer = sql`
      select t.customer_code, sum(t.invoice_count) as "InvoiceCount", sum(t.quantity) as "Quantity", sum(t.value) as "Value"
      from sales_period_totals t
      where ${inSpans(spans, s, 't')} and ${all(summaryKeyConditions(filters, 't'))}
      group by ${s.groupKey(sql.ref('t.customer_code'))}
      having sum(t.invoice_count) > 0`;
  } else {
    const sets = await categorySetsWithAny(db, filters.categories);
    if (sets.length === 0) return undefined;
    perCustomer = sql`
      select u.customer_code, sum(u.invoice_count) as "InvoiceCount", sum(u.quantity) as "Quantity", sum(u.value) as "Value"
      from (
        select c.customer_code, 0 as invoice_count, c.quantity, c.value
        from sales_period_categories c
        where ${inSpans(spans, s, 'c')} and ${all(summaryKeyConditions(filters, 'c'))} and ${inValues('c.category_code', filters.categories)}
        union all
        select k.customer_code, k.invoice_count, 0 as quantity, 0 as value
        from sales_period_category_sets k
        where ${inSpans(spans, s, 'k')} and ${all(summaryKeyConditions(filters, 'k'))} and ${inValues('k.category_set', sets)}
      ) u
      group by u.customer_code
      having sum(u.invoice_count) > 0`;
  }
  return sql<CustomerSalesSums>`${withCustomerColumns(perCustomer, SALES_MEASURES)}`;
}

/** A customer's sales as SQL gives them: the sums numeric text on PostgreSQL. */
export type CustomerSalesSums = CustomerColumns & Record<SalesMeasure, Numeric>;

/** The category sets (',A,B,') that hold at least one of `categories`. */
async function categorySetsWithAny(db: Db, categories: readonly string[]): Promise<string[]> {
  const rows = await db.selectFrom('sales_category_sets').select('category_set').execute();
  return rows.map((r) => r.category_set).filter((set) => categories.some((code) => set.includes(`,${code},`)));
}

/**
 * The order-versus-delivery measures of one group, money in minor units, as SQL returns them (docs/behaviour.md): pending
 * is max(ordered - delivered, 0) per order line, then summed, so an over-delivered line never hides what another still owes.
 */
export const DELIVERY_RECORD_COLUMNS = [
  'ordered_quantity',
  'ordered_value',
  'delivered_quantity',
  'delivered_value',
  'pending_quantity',
  'pending_value',
] as const;
export type DeliveryRecord = Record<(typeof DELIVERY_RECORD_COLUMNS)[number], number>;

/** Numbers from SQL (PostgreSQL returns numeric sums, absent groups give null) as plain integers. */
export function deliveryRecord(r: { [K in keyof DeliveryRecord]: number | string | null }): DeliveryRecord {
  return Object.fromEntries(DELIVERY_RECORD_COLUMNS.map((c) => [c, Number(r[c] ?? 0)])) as DeliveryRecord;
}

/** The order-versus-delivery measures per customer, for a report that streams its rows (the summaries test holds them to the raw rows). */
export async function deliveriesPerCustomerQuery(
  db: Db,
  filters: ResolvedFilters,
): Promise<RawBuilder<CustomerDeliverySums>> {
  const grouped = await deliveriesGrouped(db, filters, 'customer_code');
  return sql<CustomerDeliverySums>`${withCustomerColumns(grouped, DELIVERY_RECORD_COLUMNS)}`;
}

/** A customer's order and delivery measures as SQL gives them. */
export type CustomerDeliverySums = CustomerColumns & Record<keyof DeliveryRecord, Numeric>;

/**
 * Whether SQL's order by `field` is the answer's: SQL compares text by code point, the answer by UTF-16
 * code unit, which differ only for text beyond the Basic Multilingual Plane.
 */
export async function sqlOrderHolds(db: Db, field: string): Promise<boolean> {
  const s = summarySql(db);
  const texts = [
    CUSTOMER_COLUMNS.CustomerCode,
    ...(field in CUSTOMER_COLUMNS ? [CUSTOMER_COLUMNS[field as keyof CustomerColumns]] : []),
  ];
  const found = await sql<{ one: number }>`
    select 1 as one from customers c join states st on st.code = c.state_code
    where ${sql.join(
      texts.map((column) => s.beyondBmp(sql.ref(column))),
      sql` or `,
    )} limit 1`.execute(db);
  return found.rows.length === 0;
}

/** Order/delivery measures per order officer; `officers` limits the orders to those officers'. */
export async function deliveriesPerOfficer(
  db: Db,
  filters: ResolvedFilters,
  officers?: readonly string[],
): Promise<Map<string, DeliveryRecord>> {
  const grouped = await deliveriesGrouped(db, filters, 'sales_officer_id', officers);
  const { rows } = await sql<{ sales_officer_id: string } & Record<keyof DeliveryRecord, Numeric>>`${grouped}`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.sales_officer_id, deliveryRecord(r)]));
}

/**
 * The order-versus-delivery measures per customer or order officer. The period sums hold every
 * delivery ever made, so the deliveries after the range's end are taken back out: those of orders
 * placed at most the longest delivery lag before it.
 */
async function deliveriesGrouped(
  db: Db,
  filters: ResolvedFilters,
  group: 'customer_code' | 'sales_officer_id',
  officers?: readonly string[],
): Promise<RawBuilder<unknown>> {
  const s = summarySql(db);
  const conditions = (alias: string) => {
    const list = summaryKeyConditions(filters, alias);
    if (filters.categories !== undefined) list.push(inValues(`${alias}.category_code`, filters.categories));
    if (officers !== undefined) list.push(inValues(`${alias}.sales_officer_id`, officers));
    return all(list);
  };
  const period = sql`
    select ${sql.ref(`p.${group}`)} as ${sql.ref(group)}, p.ordered_quantity, p.ordered_value, p.delivered_quantity, p.delivered_value, p.capped_quantity, p.capped_value
    from ${sql.table(filters.categories === undefined ? 'order_period_totals' : 'order_period_categories')} p
    where ${inSpans(periodSpans(filters.dates.from, filters.dates.to), s, 'p')} and ${conditions('p')}`;
  const { from, to } = filters.dates;
  let parts = period;
  if (to !== undefined) {
    const earliest = earliestOrderDate(to, await maxDeliveryLag(db), from);
    parts = sql`${period}
      union all
      select ${sql.ref(`e.${group}`)}, 0, 0, -e.delivered_quantity, -e.delivered_value, -e.capped_quantity, -e.capped_value
      from order_delivery_events e
      where e.order_date between ${s.date(earliest)} and ${s.date(to)} and e.delivery_date > ${s.date(to)} and ${conditions('e')}`;
  }
  return sql`
    select ${sql.ref(`m.${group}`)} as ${sql.ref(group)},
      sum(m.ordered_quantity) as ordered_quantity, sum(m.ordered_value) as ordered_value,
      sum(m.delivered_quantity) as delivered_quantity, sum(m.delivered_value) as delivered_value,
      sum(m.ordered_quantity) - sum(m.capped_quantity) as pending_quantity, sum(m.ordered_value) - sum(m.capped_value) as pending_value
    from (${parts}) m
    group by ${s.groupKey(sql.ref(`m.${group}`))}`;
}

/** The earliest order date whose deliveries can fall after `to`: lagDays before it, never before `from`. */
function earliestOrderDate(to: string, lagDays: number, from: string | undefined): string {
  const d = new Date(`${to}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - lagDays);
  const earliest = d.toISOString().slice(0, 10);
  return from !== undefined && from > earliest ? from : earliest;
}

// ---- the dashboard (getSalesReportStats) ---------------------------------------------------------

/** The dashboard's dates, yyyy-MM-dd: AsOf, the 1st of its month, the 1st of its fiscal year. */
export interface Period {
  asOf: string;
  monthStart: string;
  yearStart: string;
}

/** `column` is the customer of a scope officer (undefined officers = every customer). */
function inScope(column: string, officers: string[] | undefined): Expression<SqlBool> {
  if (officers === undefined) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.ref(column)} in (select code from customers where ${inValues('sales_officer_id', officers)})`;
}

/** Invoice amounts from the 1st of the month and of the fiscal year to AsOf (summary data: periods.ts). */
export async function salesTotals(
  db: Db,
  officers: string[] | undefined,
  p: Period,
): Promise<{ mtd: number; ytd: number }> {
  const s = summarySql(db);
  const sum = (from: string) =>
    total(
      db
        .selectFrom('sales_period_totals as t')
        .where(inSpans(periodSpans(from, p.asOf), s, 't'))
        .where(inScope('t.customer_code', officers))
        .select(sql<number>`coalesce(sum(t.amount), 0)`.as('total')),
    );
  return { mtd: await sum(p.monthStart), ytd: await sum(p.yearStart) };
}

/** OPEN orders dated up to AsOf that still owe some quantity as of AsOf, and what they owe in value. */
export async function pendingOrders(
  db: Db,
  officers: string[] | undefined,
  asOf: string,
): Promise<{ orders: number; value: number }> {
  const s = summarySql(db);
  const { rows } = await sql<{ orders: number; value: number }>`
    select count(*) as orders, coalesce(sum(p.owed_value), 0) as value
    from (
      select b.ordered_quantity - b.capped_quantity + coalesce(later.capped_quantity, 0) as owed_quantity,
        b.ordered_value - b.capped_value + coalesce(later.capped_value, 0) as owed_value
      from open_order_balances b
      left join (
        select order_no, sum(capped_quantity) as capped_quantity, sum(capped_value) as capped_value
        from open_order_deliveries where delivery_date > ${s.date(asOf)} group by order_no
      ) later on later.order_no = b.order_no
      where b.order_date <= ${s.date(asOf)} and ${inScope('b.customer_code', officers)}
    ) p
    where p.owed_quantity > 0`.execute(db);
  return { orders: Number(rows[0].orders), value: Number(rows[0].value) };
}

export function collectionsTotal(db: Db, officers: string[] | undefined, p: Period): Promise<number> {
  return total(
    db
      .selectFrom('receipt_period_totals as r')
      .where(inSpans(periodSpans(p.monthStart, p.asOf), summarySql(db), 'r'))
      .where(inScope('r.customer_code', officers))
      .select(sql<number>`coalesce(sum(r.amount), 0)`.as('total')),
  );
}

/** Debits minus credits up to AsOf: the closing balances before AsOf's month, and that month's entries. */
export async function outstandingTotal(db: Db, officers: string[] | undefined, p: Period): Promise<number> {
  const month = await closingMonthBefore(db, p.monthStart);
  const closing =
    month === undefined
      ? 0
      : await total(
          db
            .selectFrom('ledger_month_balances as b')
            .where('b.month_start', '=', summarySql(db).date(month))
            .where(inScope('b.customer_code', officers))
            .select(sql<number>`coalesce(sum(b.closing_balance), 0)`.as('total')),
        );
  const current = await total(
    db
      .selectFrom('ledger_entries')
      .where('entry_date', '>=', p.monthStart)
      .where('entry_date', '<=', p.asOf)
      .where(inScope('customer_code', officers))
      .select(sql<number>`coalesce(sum(debit), 0) - coalesce(sum(credit), 0)`.as('total')),
  );
  return closing + current;
}

/** The statement of openWarrantyRequests: it reads the index on the customer and status (migration 0006). */
export function openWarrantyRequestsQuery(db: Db, officers: string[] | undefined) {
  return db
    .selectFrom('warranty_requests')
    .where('status', 'not in', ['REJECTED', 'CLOSED'])
    .where(inScope('customer_code', officers))
    .select(COUNT);
}

export function openWarrantyRequests(db: Db, officers: string[] | undefined): Promise<number> {
  return total(openWarrantyRequestsQuery(db, officers));
}

export function pendingActivities(db: Db, officers: string[] | undefined): Promise<number> {
  return total(
    db.selectFrom('activities').where('status', '=', 'PENDING').where(inScope('customer_code', officers)).select(COUNT),
  );
}

export function activeCustomers(db: Db, officers: string[] | undefined): Promise<number> {
  return total(
    db
      .selectFrom('customers')
      .where('active', '=', 1)
      .$if(officers !== undefined, (qb) => qb.where('sales_officer_id', 'in', officers!))
      .select(COUNT),
  );
}

export function activeSalesOfficers(db: Db, officers: string[] | undefined): Promise<number> {
  return total(
    db
      .selectFrom('users')
      .where('role', '=', 'SO')
      .where('active', '=', 1)
      .$if(officers !== undefined, (qb) => qb.where('id', 'in', officers!))
      .select(COUNT),
  );
}

const COUNT = sql<number>`count(*)`.as('total');

/** The `total` a dashboard figure's query selects, as a number (numeric text on PostgreSQL). */
async function total(query: { executeTakeFirstOrThrow(): Promise<{ total: number | string }> }): Promise<number> {
  return Number((await query.executeTakeFirstOrThrow()).total);
}

// ---- the officer report's officers ---------------------------------------------------------------

/** A sales officer as the officer report shows it. */
export type Officer = Awaited<ReturnType<typeof selectSalesOfficers>>[number];

/** The sales officers with these ids (undefined: every one). */
export async function selectSalesOfficers(db: Db, ids: readonly string[] | undefined) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'manager_id', 'active'])
    .where('role', '=', 'SO')
    .$if(ids !== undefined, (qb) => qb.where('id', 'in', ids!))
    .execute();
}
