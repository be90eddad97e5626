/**
 * The queries behind getSalesReportStats (sales-stats.ts): one aggregate each, restricted to the
 * customers of the scope's officers (undefined = every customer), money in minor units.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';

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
  return sql<SqlBool>`${sql.ref(column)} in (select code from customers where sales_officer_id in (${sql.join(officers)}))`;
}

export async function salesTotals(db: Db, officers: string[] | undefined, p: Period): Promise<{ mtd: number; ytd: number }> {
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
export async function pendingOrders(db: Db, officers: string[] | undefined, asOf: string): Promise<{ orders: number; value: number }> {
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
        .leftJoin('invoice_lines as il', (join) => join.onRef('il.order_no', '=', 'l.order_no').onRef('il.order_line_no', '=', 'l.line_no'))
        .leftJoin('invoices as i', 'i.invoice_no', 'il.invoice_no')
        .groupBy(['l.order_no', 'l.line_no', 'l.quantity', 'l.value'])
        .select([
          'l.order_no',
          sql<number>`l.quantity - coalesce(sum(case when i.invoice_date <= ${asOf} then il.quantity end), 0)`.as('owed_quantity'),
          sql<number>`l.value - coalesce(sum(case when i.invoice_date <= ${asOf} then il.value end), 0)`.as('owed_value'),
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

export async function collectionsTotal(db: Db, officers: string[] | undefined, p: Period): Promise<number> {
  const row = await db
    .selectFrom('receipts')
    .where('receipt_date', '>=', p.monthStart)
    .where('receipt_date', '<=', p.asOf)
    .where(inScope('customer_code', officers))
    .select(sql<number>`coalesce(sum(amount), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function outstandingTotal(db: Db, officers: string[] | undefined, asOf: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .where('entry_date', '<=', asOf)
    .where(inScope('customer_code', officers))
    .select(sql<number>`coalesce(sum(debit), 0) - coalesce(sum(credit), 0)`.as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
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
