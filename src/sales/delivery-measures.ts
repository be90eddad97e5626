/**
 * The order-versus-delivery measures of getOrderVDeliverySummaryRecords and getOrderVsDeliveryOfficer
 * (docs/behaviour.md): pending is max(ordered - delivered, 0) per order line, then summed, so an
 * over-delivered line never hides what another still owes.
 */
import { amount, percentOf } from '../operations/values';

/** The measures of one group, money in minor units, as SQL returns them. */
export const DELIVERY_RECORD_COLUMNS = ['ordered_quantity', 'ordered_value', 'delivered_quantity', 'delivered_value', 'pending_quantity', 'pending_value'] as const;
export type DeliveryRecord = Record<(typeof DELIVERY_RECORD_COLUMNS)[number], number>;

/** A group with nothing ordered or delivered. */
export const NO_DELIVERY: Readonly<DeliveryRecord> = { ordered_quantity: 0, ordered_value: 0, delivered_quantity: 0, delivered_value: 0, pending_quantity: 0, pending_value: 0 };

export const DELIVERY_MEASURE_FIELDS = ['OrderedQuantity', 'OrderedValue', 'DeliveredQuantity', 'DeliveredValue', 'PendingQuantity', 'PendingValue', 'DeliveryPercent'] as const;

/** Numbers from SQL (PostgreSQL returns numeric sums, absent groups give null) as plain integers. */
export function deliveryRecord(r: { [K in keyof DeliveryRecord]: number | string | null }): DeliveryRecord {
  return Object.fromEntries(DELIVERY_RECORD_COLUMNS.map((c) => [c, Number(r[c] ?? 0)])) as DeliveryRecord;
}

export function deliveryMeasures(r: DeliveryRecord) {
  return {
    OrderedQuantity: r.ordered_quantity,
    OrderedValue: amount(r.ordered_value),
    DeliveredQuantity: r.delivered_quantity,
    DeliveredValue: amount(r.delivered_value),
    PendingQuantity: r.pending_quantity,
    PendingValue: amount(r.pending_value),
    DeliveryPercent: percentOf(r.delivered_value, r.ordered_value),
  };
}

/** Totals: the sums of the rows' quantities and values; DeliveryPercent recomputed from those sums. */
export function deliveryTotals(records: readonly DeliveryRecord[]): Record<string, number> {
  const sum: DeliveryRecord = { ...NO_DELIVERY };
  for (const r of records) {
    for (const key of DELIVERY_RECORD_COLUMNS) sum[key] += r[key];
  }
  return { ...deliveryMeasures(sum) };
}
