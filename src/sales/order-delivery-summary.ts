/**
 * getOrderVDeliverySummaryRecords (docs/behaviour.md): per customer, the orders placed in the date
 * range against what was invoiced for them up to its end (delivery-measures.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { countRows, rowBatches, StreamedData } from '../operations/streamed';
import { DELIVERY_MEASURE_FIELDS, DELIVERY_RECORD_COLUMNS, deliveryMeasures, deliveryRecord, deliveryTotals, NO_DELIVERY, type DeliveryRecord } from './delivery-measures';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { deliveriesPerCustomerQuery, inOrder, sqlOrderHolds, type CustomerColumns, type CustomerDeliverySums } from './repository';
import { sortedReport } from './sort-rows';
import type { OfficerBound } from '../users/principal-scope';

export const ORDER_DELIVERY_FIELDS = ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', ...DELIVERY_MEASURE_FIELDS] as const;
export type OrderDeliveryField = (typeof ORDER_DELIVERY_FIELDS)[number];

/** Streamed in the order asked of SQL, as the sales summary; by DeliveryPercent, worked out here, sorted here. */
export async function orderDeliverySummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<OrderDeliveryField>, allowed?: OfficerBound, streams = false): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  if (filters === undefined) return { data: [], totals: deliveryTotals([]) };
  const column = RECORD_COLUMNS[order.field];
  const sqlOrder = column === undefined ? undefined : { column, descending: order.direction === 'desc' };
  const inSqlOrder = async (trx: Kysely<Database>) => sqlOrder !== undefined && (await sqlOrderHolds(trx, sqlOrder.column));
  return sortedReport<ReturnType<typeof toRow>, OrderDeliveryField, 'CustomerCode'>(db, streams, order, 'CustomerCode', inSqlOrder, async (trx, end) => {
    const query = await deliveriesPerCustomerQuery(trx, filters);
    const sums: DeliveryRecord = { ...NO_DELIVERY };
    const rows = () =>
      rowBatches(trx, inOrder(trx, query, sqlOrder ?? { column: 'code', descending: false }), (r: CustomerDeliverySums) => {
        const record = deliveryRecord(r);
        for (const key of DELIVERY_RECORD_COLUMNS) sums[key] += record[key];
        return toRow(r, record);
      });
    return new StreamedData({ kind: 'rows', rows }, () => countRows(trx, query), () => deliveryTotals([sums]), end);
  });
}

/** The record column behind each field of the row (toRow); DeliveryPercent is worked out here, not in SQL. */
const RECORD_COLUMNS: Readonly<Record<OrderDeliveryField, keyof CustomerDeliverySums | undefined>> = {
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

function toRow(r: CustomerColumns, measures: DeliveryRecord) {
  return { CustomerCode: r.code, CustomerName: r.name, StateCode: r.state_code, ZoneCode: r.zone_code, ...deliveryMeasures(measures) };
}
