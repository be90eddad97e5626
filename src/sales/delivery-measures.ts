/**
 * The order-versus-delivery measures shared by getOrderVDeliverySummaryRecords (per customer) and
 * getOrderVsDeliveryOfficer (per sales officer), domain.md:
 * - ordered: the lines of orders that are not CANCELLED, placed in the date range;
 * - delivered: the invoice lines that reference those order lines (order_no, order_line_no), invoiced
 *   on or before the end of the range (no end: every delivery so far);
 * - pending: max(ordered - delivered, 0) per order line, then summed, so an over-delivered line never
 *   hides what another line still owes;
 * - DeliveryPercent: delivered value / ordered value * 100, two decimals, 0 when nothing was ordered.
 * Everything is aggregated in SQL: one row per order line, grouped again per customer or officer.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/money';
import { filterConditions, type ResolvedFilters } from './report-filters';

/** The measures of one group, money in minor units, as SQL returns them. */
export interface DeliveryRecord {
  ordered_quantity: number;
  ordered_value: number;
  delivered_quantity: number;
  delivered_value: number;
  pending_quantity: number;
  pending_value: number;
}

export interface DeliveryMeasures {
  OrderedQuantity: number;
  OrderedValue: number;
  DeliveredQuantity: number;
  DeliveredValue: number;
  PendingQuantity: number;
  PendingValue: number;
  DeliveryPercent: number;
}

/** A group with nothing ordered or delivered. */
export const NO_DELIVERY: Readonly<DeliveryRecord> = { ordered_quantity: 0, ordered_value: 0, delivered_quantity: 0, delivered_value: 0, pending_quantity: 0, pending_value: 0 };

export const DELIVERY_MEASURE_FIELDS = ['OrderedQuantity', 'OrderedValue', 'DeliveredQuantity', 'DeliveredValue', 'PendingQuantity', 'PendingValue', 'DeliveryPercent'] as const;

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
  if (officers !== undefined) conditions.push(sql<SqlBool>`o.sales_officer_id in (${sql.join(officers)})`);
  const upTo = filters.dates.to;
  // Deliveries after the end of the range do not count; only then is the invoice read for its date.
  const delivered = (column: 'quantity' | 'value') =>
    upTo === undefined ? sql<number>`coalesce(sum(${sql.ref(`il.${column}`)}), 0)` : sql<number>`coalesce(sum(case when i.invoice_date <= ${upTo} then ${sql.ref(`il.${column}`)} end), 0)`;
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
        .leftJoin('invoice_lines as il', (join) => join.onRef('il.order_no', '=', 'l.order_no').onRef('il.order_line_no', '=', 'l.line_no'))
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
  sql<number>`sum(case when x.ordered_quantity > x.delivered_quantity then x.ordered_quantity - x.delivered_quantity else 0 end)`.as('pending_quantity'),
  sql<number>`sum(case when x.ordered_value > x.delivered_value then x.ordered_value - x.delivered_value else 0 end)`.as('pending_value'),
] as const;

/** Numbers from SQL (PostgreSQL returns numeric sums, absent groups give null) as plain integers. */
export function deliveryRecord(r: { [K in keyof DeliveryRecord]: number | string | null }): DeliveryRecord {
  return {
    ordered_quantity: Number(r.ordered_quantity ?? 0),
    ordered_value: Number(r.ordered_value ?? 0),
    delivered_quantity: Number(r.delivered_quantity ?? 0),
    delivered_value: Number(r.delivered_value ?? 0),
    pending_quantity: Number(r.pending_quantity ?? 0),
    pending_value: Number(r.pending_value ?? 0),
  };
}

export function deliveryMeasures(r: DeliveryRecord): DeliveryMeasures {
  return {
    OrderedQuantity: r.ordered_quantity,
    OrderedValue: amount(r.ordered_value),
    DeliveredQuantity: r.delivered_quantity,
    DeliveredValue: amount(r.delivered_value),
    PendingQuantity: r.pending_quantity,
    PendingValue: amount(r.pending_value),
    DeliveryPercent: deliveryPercent(r.delivered_value, r.ordered_value),
  };
}

function deliveryPercent(deliveredMinor: number, orderedMinor: number): number {
  return orderedMinor === 0 ? 0 : Math.round((deliveredMinor * 10000) / orderedMinor) / 100;
}

/** Totals: the sums of the rows' quantities and values; DeliveryPercent recomputed from those sums. */
export function deliveryTotals(records: DeliveryRecord[]): Record<string, number> {
  const sum: DeliveryRecord = { ...NO_DELIVERY };
  for (const r of records) {
    for (const key of Object.keys(sum) as (keyof DeliveryRecord)[]) sum[key] += r[key];
  }
  return { ...deliveryMeasures(sum) };
}
