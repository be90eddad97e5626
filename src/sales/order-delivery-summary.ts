/**
 * getOrderVDeliverySummaryRecords (docs/behaviour.md): per customer, the orders placed in the date range
 * against what has been invoiced for them up to the end of the range (delivery-measures.ts).
 * Filters as getSalesSummaryRecords, applied to the order: its officer, customer, profit center and
 * date; FromPCat/ToPCat on the order lines. A customer appears only with at least one matching line.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { DELIVERY_MEASURE_FIELDS, deliveryMeasures, deliveryTotals, type DeliveryMeasures } from './delivery-measures';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { deliveriesPerCustomer, deliveryRowsWhole, type CustomerDeliveries } from './repository';
import type { RowShape } from '../db/row-shape';
import { sortedWhole, sortRows } from './sort-rows';
import { mapInTurns } from '../operations/turns';
import type { OfficerBound } from '../users/principal-scope';

export const ORDER_DELIVERY_FIELDS = ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', ...DELIVERY_MEASURE_FIELDS] as const;
export type OrderDeliveryField = (typeof ORDER_DELIVERY_FIELDS)[number];

export interface OrderDeliveryRow extends DeliveryMeasures {
  CustomerCode: string;
  CustomerName: string;
  StateCode: string;
  ZoneCode: string;
}

/**
 * `allowed`: the authenticated user's bound (principal-scope.ts), customers of those officers only.
 * `streams`: the caller takes the rows as JSON (JsonRows). Where SQL can give the order asked
 * for, the rows are made where they are read, as JSON bytes (repository.ts, deliveryRowsWhole; as the
 * sales summary, sales-summary.ts); sorted by DeliveryPercent, worked out here, they are sorted here.
 */
export async function orderDeliverySummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<OrderDeliveryField>, allowed?: OfficerBound, streams = false): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  if (filters === undefined) return { data: [], totals: await deliveryTotals([]) };
  const column = RECORD_COLUMNS[order.field];
  const descending = order.direction === 'desc';
  if (column === undefined) {
    const records = await deliveriesPerCustomer(db, filters);
    return { data: sortRows(await mapInTurns(records, toRow), order, 'CustomerCode'), totals: await deliveryTotals(records) };
  }
  const read = await deliveryRowsWhole(db, filters, ORDER_DELIVERY_SHAPE, { column, descending, check: { field: order.field, descending, key: 'CustomerCode' } });
  const totals = await deliveryTotals([read.totals]);
  return { data: sortedWhole<OrderDeliveryRow, OrderDeliveryField, 'CustomerCode'>(read.rows, order, 'CustomerCode', streams), totals };
}

/** The answer's row made from the query's, as toRow makes it: quantities as numbers, values from minor units. */
const ORDER_DELIVERY_SHAPE: RowShape = [
  { name: 'CustomerCode', column: 'code', conversion: 'value' },
  { name: 'CustomerName', column: 'name', conversion: 'value' },
  { name: 'StateCode', column: 'state_code', conversion: 'value' },
  { name: 'ZoneCode', column: 'zone_code', conversion: 'value' },
  { name: 'OrderedQuantity', column: 'ordered_quantity', conversion: 'number' },
  { name: 'OrderedValue', column: 'ordered_value', conversion: 'money' },
  { name: 'DeliveredQuantity', column: 'delivered_quantity', conversion: 'number' },
  { name: 'DeliveredValue', column: 'delivered_value', conversion: 'money' },
  { name: 'PendingQuantity', column: 'pending_quantity', conversion: 'number' },
  { name: 'PendingValue', column: 'pending_value', conversion: 'money' },
  { name: 'DeliveryPercent', column: 'delivered_value', conversion: 'percent', of: 'ordered_value' },
];

/** The record column behind each field of the row (toRow); DeliveryPercent is worked out here, not in SQL. */
const RECORD_COLUMNS: Readonly<Record<OrderDeliveryField, keyof CustomerDeliveries | undefined>> = {
  CustomerCode: 'code',
  CustomerName: 'name',
  StateCode: 'state_code',
  ZoneCode: 'zone_code',
  OrderedQuantity: 'ordered_quantity',
  OrderedValue: 'ordered_value',
  DeliveredQuantity: 'delivered_quantity',
  DeliveredValue: 'delivered_value',
  PendingQuantity: 'pending_quantity',
  PendingValue: 'pending_value',
  DeliveryPercent: undefined,
};

function toRow(r: CustomerDeliveries): OrderDeliveryRow {
  return { CustomerCode: r.code, CustomerName: r.name, StateCode: r.state_code, ZoneCode: r.zone_code, ...deliveryMeasures(r) };
}
