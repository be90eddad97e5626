/**
 * The order-versus-delivery reports (docs/behaviour.md, measures in delivery-measures.ts):
 * getOrderVDeliverySummaryRecords per customer, the orders placed in the date range against what was
 * invoiced for them up to its end; getOrderVsDeliveryOfficer per sales officer, by the order's officer.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { countRows, rowBatches, StreamedData } from '../operations/streamed';
import { storedUserId } from '../operations/master-codes';
import { idsBelow } from '../users/hierarchy';
import { DELIVERY_MEASURE_FIELDS, DELIVERY_RECORD_COLUMNS, deliveryMeasures, deliveryRecord, deliveryTotals, NO_DELIVERY, type DeliveryRecord } from './delivery-measures';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { deliveriesPerCustomerQuery, deliveriesPerOfficer, inOrder, selectSalesOfficers, sqlOrderHolds, type CustomerColumns, type CustomerDeliverySums, type Officer } from './repository';
import { sortedReport, sortRows } from './sort-rows';
import { assertOfficerInScope, intersectOfficers, type OfficerBound } from '../users/principal-scope';

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
      rowBatches(trx, inOrder(trx, query, sqlOrder ?? { column: 'CustomerCode', descending: false }), (r: CustomerDeliverySums) => {
        const record = deliveryRecord(r);
        for (const key of DELIVERY_RECORD_COLUMNS) sums[key] += record[key];
        return toRow(r, record);
      });
    return new StreamedData({ kind: 'rows', rows }, () => countRows(trx, query), () => deliveryTotals([sums]), end);
  });
}

/** The record column behind each field of the row (toRow); DeliveryPercent is worked out here, not in SQL. */
const RECORD_COLUMNS: Readonly<Record<OrderDeliveryField, keyof CustomerDeliverySums | undefined>> = {
  CustomerCode: 'CustomerCode',
  CustomerName: 'CustomerName',
  StateCode: 'StateCode',
  ZoneCode: 'ZoneCode',
  OrderedQuantity: 'ordered_quantity',
  OrderedValue: 'ordered_value',
  DeliveredQuantity: 'delivered_quantity',
  DeliveredValue: 'delivered_value',
  PendingQuantity: 'pending_quantity',
  PendingValue: 'pending_value',
  DeliveryPercent: undefined,
};

function toRow(r: CustomerColumns, measures: DeliveryRecord) {
  return { CustomerCode: r.CustomerCode, CustomerName: r.CustomerName, StateCode: r.StateCode, ZoneCode: r.ZoneCode, ...deliveryMeasures(measures) };
}

export const OFFICER_DELIVERY_FIELDS = ['SalesOfficer', 'SalesOfficerName', 'ManagerId', ...DELIVERY_MEASURE_FIELDS] as const;
export type OfficerDeliveryField = (typeof OFFICER_DELIVERY_FIELDS)[number];

export interface OfficerChoice {
  managerId?: string;
  salesOfficer?: string;
}

/**
 * An inactive officer appears only with orders in the period, so past orders stay visible without
 * every former officer cluttering the report.
 */
export async function officerDeliverySummary(db: Kysely<Database>, choice: OfficerChoice, input: ReportFilterInput, order: Sort<OfficerDeliveryField>, allowed?: OfficerBound): Promise<OperationResult> {
  const scope = await officerIds(db, choice, allowed);
  const officers = scope?.length === 0 ? [] : await selectSalesOfficers(db, scope);
  const filters = await resolveFilters(db, input);
  const measures = officers.length === 0 || filters === undefined ? new Map<string, DeliveryRecord>() : await deliveriesPerOfficer(db, filters, scope && officers.map((o) => o.id));
  const records = officers
    .map((officer) => ({ officer, measures: measures.get(officer.id) }))
    .filter((r) => r.officer.active === 1 || r.measures !== undefined)
    .map((r) => ({ officer: r.officer, measures: r.measures ?? NO_DELIVERY }));
  const rows = sortRows(records.map(officerRow), order, 'SalesOfficer');
  return { data: rows, totals: deliveryTotals(records.map((r) => r.measures)) };
}

/**
 * The ids the report may show (any role; rows keep the SOs), undefined = everyone, [] = nobody;
 * never beyond `allowed`, and an officer named outside it is FORBIDDEN.
 */
async function officerIds(db: Kysely<Database>, choice: OfficerChoice, allowed: OfficerBound): Promise<OfficerBound> {
  const officer = choice.salesOfficer === undefined ? undefined : await storedUserId(db, choice.salesOfficer);
  if (choice.salesOfficer !== undefined && officer === undefined) return [];
  if (officer !== undefined) assertOfficerInScope(allowed, officer, 'SalesOfficer');
  if (choice.managerId === undefined) return officer === undefined ? allowed : [officer];
  const manager = await storedUserId(db, choice.managerId);
  if (manager === undefined) return [];
  assertOfficerInScope(allowed, manager, 'ManagerId');
  const below = intersectOfficers(await idsBelow(db, manager), allowed)!;
  if (officer === undefined) return below;
  return below.includes(officer) ? [officer] : [];
}

function officerRow(r: { officer: Officer; measures: DeliveryRecord }) {
  return { SalesOfficer: r.officer.id, SalesOfficerName: r.officer.name, ManagerId: r.officer.manager_id, ...deliveryMeasures(r.measures) };
}
