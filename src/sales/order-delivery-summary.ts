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
import { deliveriesPerCustomer, type CustomerDeliveries } from './repository';
import { sortRows } from './sort-rows';
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

/** `allowed`: the authenticated user's bound (principal-scope.ts), customers of those officers only. */
export async function orderDeliverySummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<OrderDeliveryField>, allowed?: OfficerBound): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  const column = RECORD_COLUMNS[order.field];
  const records = filters === undefined ? [] : await deliveriesPerCustomer(db, filters, column && { column, descending: order.direction === 'desc' });
  const rows = sortRows(await mapInTurns(records, toRow), order, 'CustomerCode');
  return { data: rows, totals: await deliveryTotals(records) };
}

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
