/**
 * getOrderVDeliverySummaryRecords (domain.md): per customer, the orders placed in the date range
 * against what has been invoiced for them up to the end of the range (delivery-measures.ts).
 * Filters as getSalesSummaryRecords, applied to the order: its officer, customer, profit center and
 * date; FromPCat/ToPCat on the order lines. A customer appears only with at least one matching line.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { DELIVERY_MEASURE_FIELDS, deliveryMeasures, deliveryRecord, deliveryTotals, measureSums, withLineDeliveries, type DeliveryMeasures, type DeliveryRecord } from './delivery-measures';
import { resolveFilters, type ReportFilterInput, type ResolvedFilters } from './report-filters';
import { sortRows } from './sort-rows';
import type { OfficerBound } from '../users/principal-scope';

export const ORDER_DELIVERY_FIELDS = ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', ...DELIVERY_MEASURE_FIELDS] as const;
export type OrderDeliveryField = (typeof ORDER_DELIVERY_FIELDS)[number];

export interface OrderDeliveryRow extends DeliveryMeasures {
  CustomerCode: string;
  CustomerName: string;
  StateCode: string;
  ZoneCode: string;
}

interface CustomerDeliveryRecord extends DeliveryRecord {
  code: string;
  name: string;
  state_code: string;
  zone_code: string;
}

/** `allowed`: the authenticated user's bound (principal-scope.ts), customers of those officers only. */
export async function orderDeliverySummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<OrderDeliveryField>, allowed?: OfficerBound): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  const records = filters === undefined ? [] : await selectDeliveriesPerCustomer(db, filters);
  const rows = sortRows(records.map(toRow), order, 'CustomerCode');
  return { data: rows, totals: deliveryTotals(records) };
}

/** Summed per customer code first; names, states and zones are joined to the one row per customer. */
async function selectDeliveriesPerCustomer(db: Kysely<Database>, filters: ResolvedFilters): Promise<CustomerDeliveryRecord[]> {
  const rows = await withLineDeliveries(db, filters)
    .selectFrom((eb) =>
      eb
        .selectFrom('line_deliveries as x')
        .groupBy('x.customer_code')
        .select([
          'x.customer_code',
          ...measureSums,
        ])
        .as('t'),
    )
    .innerJoin('customers as c', 'c.code', 't.customer_code')
    .innerJoin('states as s', 's.code', 'c.state_code')
    .selectAll('t')
    .select(['c.code', 'c.name', 'c.state_code', 's.zone_code'])
    .execute();
  return rows.map((r) => ({ code: r.code, name: r.name, state_code: r.state_code, zone_code: r.zone_code, ...deliveryRecord(r) }));
}

function toRow(r: CustomerDeliveryRecord): OrderDeliveryRow {
  return { CustomerCode: r.code, CustomerName: r.name, StateCode: r.state_code, ZoneCode: r.zone_code, ...deliveryMeasures(r) };
}
