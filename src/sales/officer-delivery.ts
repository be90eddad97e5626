/**
 * getOrderVsDeliveryOfficer (docs/behaviour.md): the measures per sales officer, by the order's
 * officer. An inactive officer appears only with orders in the period, so past orders stay visible
 * without every former officer cluttering the report.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { idsBelow } from '../users/hierarchy';
import { DELIVERY_MEASURE_FIELDS, deliveryMeasures, deliveryTotals, NO_DELIVERY, type DeliveryRecord } from './delivery-measures';
import { storedUserId } from '../operations/master-codes';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { deliveriesPerOfficer, selectSalesOfficers, type Officer } from './repository';
import { sortRows } from './sort-rows';
import { assertOfficerInScope, intersectOfficers, type OfficerBound } from '../users/principal-scope';

export const OFFICER_DELIVERY_FIELDS = ['SalesOfficer', 'SalesOfficerName', 'ManagerId', ...DELIVERY_MEASURE_FIELDS] as const;
export type OfficerDeliveryField = (typeof OFFICER_DELIVERY_FIELDS)[number];

export interface OfficerChoice {
  managerId?: string;
  salesOfficer?: string;
}

export async function officerDeliverySummary(db: Kysely<Database>, choice: OfficerChoice, input: ReportFilterInput, order: Sort<OfficerDeliveryField>, allowed?: OfficerBound): Promise<OperationResult> {
  const scope = await officerIds(db, choice, allowed);
  const officers = scope?.length === 0 ? [] : await selectSalesOfficers(db, scope);
  const filters = await resolveFilters(db, input);
  const measures = officers.length === 0 || filters === undefined ? new Map<string, DeliveryRecord>() : await deliveriesPerOfficer(db, filters, scope && officers.map((o) => o.id));
  const records = officers
    .map((officer) => ({ officer, measures: measures.get(officer.id) }))
    .filter((r) => r.officer.active === 1 || r.measures !== undefined)
    .map((r) => ({ officer: r.officer, measures: r.measures ?? NO_DELIVERY }));
  const rows = sortRows(records.map(toRow), order, 'SalesOfficer');
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

function toRow(r: { officer: Officer; measures: DeliveryRecord }) {
  return { SalesOfficer: r.officer.id, SalesOfficerName: r.officer.name, ManagerId: r.officer.manager_id, ...deliveryMeasures(r.measures) };
}
