/**
 * The queries behind getSalesReportStats (sales-stats.ts): one aggregate each, restricted to the
 * customers of the scope's officers (undefined = every customer), money in minor units. Sales,
 * collections and balances read the summary data (docs/summaries.md).
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { closingMonthBefore } from '../collections/balance-reads';
import type { Database } from '../db/schema';
import { summarySql } from '../summaries/engine-sql';
import { inSpans, periodSpans } from '../summaries/periods';
import { inValues } from '../db/sql-in';

type Db = Kysely<Database>;

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
export async function salesTotals(db: Db, officers: string[] | undefined, p: Period): Promise<{ mtd: number; ytd: number }> {
  const s = summarySql(db);
  const sum = async (from: string) => {
    const row = await db
      .selectFrom('sales_period_totals as t')
      .where(inSpans(periodSpans(from, p.asOf), s, 't'))
      .where(inScope('t.customer_code', officers))
      .select(sql<number>`coalesce(sum(t.amount), 0)`.as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  };
  return { mtd: await sum(p.monthStart), ytd: await sum(p.yearStart) };
}

/**
 * OPEN orders dated up to AsOf that still owe some quantity as of AsOf, and what they owe in value
 * (summary data: per order what it ordered and, per line at most up to that, what was delivered; the
 * deliveries after AsOf are taken back out). Owed per line = max(ordered - delivered, 0), as the
 * order/delivery reports.
 */
export async function pendingOrders(db: Db, officers: string[] | undefined, asOf: string): Promise<{ orders: number; value: number }> {
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

export async function collectionsTotal(db: Db, officers: string[] | undefined, p: Period): Promise<number> {
  const row = await db
    .selectFrom('receipt_period_totals as r')
    .where(inSpans(periodSpans(p.monthStart, p.asOf), summarySql(db), 'r'))
    .where(inScope('r.customer_code', officers))
    .select(sql<number>`coalesce(sum(r.amount), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Debits minus credits up to AsOf: the closing balances before AsOf's month, and that month's entries. */
export async function outstandingTotal(db: Db, officers: string[] | undefined, p: Period): Promise<number> {
  const month = await closingMonthBefore(db, p.monthStart);
  const closing =
    month === undefined
      ? { total: 0 }
      : await db
          .selectFrom('ledger_month_balances as b')
          .where('b.month_start', '=', summarySql(db).date(month))
          .where(inScope('b.customer_code', officers))
          .select(sql<number>`coalesce(sum(b.closing_balance), 0)`.as('total'))
          .executeTakeFirstOrThrow();
  const current = await db
    .selectFrom('ledger_entries')
    .where('entry_date', '>=', p.monthStart)
    .where('entry_date', '<=', p.asOf)
    .where(inScope('customer_code', officers))
    .select(sql<number>`coalesce(sum(debit), 0) - coalesce(sum(credit), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(closing.total) + Number(current.total);
}

export async function openWarrantyRequests(db: Db, officers: string[] | undefined): Promise<number> {
  const row = await db
    .selectFrom('warranty_requests')
    .where('status', 'not in', ['REJECTED', 'CLOSED'])
    .where(inScope('customer_code', officers))
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function pendingActivities(db: Db, officers: string[] | undefined): Promise<number> {
  const row = await db
    .selectFrom('activities')
    .where('status', '=', 'PENDING')
    .where(inScope('customer_code', officers))
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function activeCustomers(db: Db, officers: string[] | undefined): Promise<number> {
  const row = await db
    .selectFrom('customers')
    .where('active', '=', 1)
    .$if(officers !== undefined, (qb) => qb.where('sales_officer_id', 'in', officers!))
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function activeSalesOfficers(db: Db, officers: string[] | undefined): Promise<number> {
  const row = await db
    .selectFrom('users')
    .where('role', '=', 'SO')
    .where('active', '=', 1)
    .$if(officers !== undefined, (qb) => qb.where('id', 'in', officers!))
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
