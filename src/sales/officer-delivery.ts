/**
 * getOrderVsDeliveryOfficer (docs/behaviour.md): the order/delivery measures per sales officer, attributed by
 * the order's officer. One row per sales officer (role SO) in scope, also with zero measures:
 * - ManagerId: every SO below that manager, at any depth;
 * - SalesOfficer: that officer only (with ManagerId too: only if below that manager);
 * - neither: every SO. An id that names nobody gives no rows.
 * An inactive officer appears only with orders in the period, so a departed officer's past orders
 * stay visible without every former officer cluttering the report.
 * Filters: order date range, Zones and States of the order's customer.
 * With an authenticated user, only officers within their scope appear (principal-scope.ts), with all of
 * their orders: the report is about the officers' work. A ManagerId or SalesOfficer outside the scope
 * is FORBIDDEN.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { idsBelow } from '../users/hierarchy';
import { DELIVERY_MEASURE_FIELDS, deliveryMeasures, deliveryTotals, NO_DELIVERY, type DeliveryMeasures, type DeliveryRecord } from './delivery-measures';
import { storedUserId } from '../operations/master-codes';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { deliveriesPerOfficer, selectSalesOfficers, type Officer } from './repository';
import { sortRows } from './sort-rows';
import { assertOfficerInScope, intersectOfficers, type OfficerBound } from '../users/principal-scope';

export const OFFICER_DELIVERY_FIELDS = ['SalesOfficer', 'SalesOfficerName', 'ManagerId', ...DELIVERY_MEASURE_FIELDS] as const;
export type OfficerDeliveryField = (typeof OFFICER_DELIVERY_FIELDS)[number];

export interface OfficerDeliveryRow extends DeliveryMeasures {
  SalesOfficer: string;
  SalesOfficerName: string;
  ManagerId: string | null;
}

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

function toRow(r: { officer: Officer; measures: DeliveryRecord }): OfficerDeliveryRow {
  return { SalesOfficer: r.officer.id, SalesOfficerName: r.officer.name, ManagerId: r.officer.manager_id, ...deliveryMeasures(r.measures) };
}
