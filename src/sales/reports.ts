/**
 * The sales reports per customer and per officer and the dashboard (docs/behaviour.md; the delivery measures as SQL
 * gives them in repository.ts), and the reports' sort where SQL's order is not the answer's.
 */
import type { Kysely } from 'kysely';
import type { Database, Role } from '../db/schema';
import { AppError, notFound } from '../errors';
import { isoDate, type Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { countRows, drain, inSnapshot, rowBatches, StreamedData, type Streams } from '../operations/streamed';
import { storedUserId } from '../operations/master-codes';
import { amount, compareValues, percentOf, plainNumber } from '../operations/values';
import { findUser, idsBelow, officerScope, ROLE_RANK, type User } from '../users/hierarchy';
import { assertOfficerInScope, assertVisible, intersectOfficers, type OfficerBound } from '../users/principal-scope';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import {
  activeCustomers,
  activeSalesOfficers,
  collectionsTotal,
  DELIVERY_RECORD_COLUMNS,
  deliveriesPerCustomerQuery,
  deliveriesPerOfficer,
  deliveryRecord,
  inOrder,
  openWarrantyRequests,
  outstandingTotal,
  pendingActivities,
  pendingOrders,
  salesPerCustomerQuery,
  salesTotals,
  selectSalesOfficers,
  sqlOrderHolds,
  type CustomerColumns,
  type CustomerDeliverySums,
  type CustomerSalesSums,
  type DeliveryRecord,
  type Officer,
  type Period,
  type SalesMeasure,
} from './repository';

export const SALES_SUMMARY_FIELDS = [
  'CustomerCode',
  'CustomerName',
  'StateCode',
  'ZoneCode',
  'SalesOfficer',
  'InvoiceCount',
  'Quantity',
  'Value',
] as const;
export type SalesSummaryField = (typeof SALES_SUMMARY_FIELDS)[number];

/**
 * getSalesSummaryRecords: invoiced sales per customer, a company-wide report streamed from a cursor as the lists are
 * (sortedReport). SalesOfficer filters on the invoice's officer, the row shows the customer's own (who owns the account today).
 */
export async function salesSummary(
  db: Kysely<Database>,
  input: ReportFilterInput,
  order: Sort<SalesSummaryField>,
  allowed?: OfficerBound,
  streams?: Streams,
): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  if (filters === undefined) return { data: [], totals: summaryTotals({ InvoiceCount: 0, Quantity: 0, Value: 0 }) };
  const sqlOrder = { column: order.field, descending: order.direction === 'desc' };
  return sortedReport<ReturnType<typeof salesRow>, SalesSummaryField, 'CustomerCode'>(
    db,
    streams,
    order,
    'CustomerCode',
    (trx) => sqlOrderHolds(trx, sqlOrder.column),
    async (trx, end) => {
      const query = await salesPerCustomerQuery(trx, filters);
      const sums = { InvoiceCount: 0, Quantity: 0, Value: 0 };
      const rows = () =>
        rowBatches(trx, query && inOrder(trx, query, sqlOrder), (r: CustomerSalesSums) => {
          const row = salesRow(r);
          sums.InvoiceCount += row.InvoiceCount;
          sums.Quantity += row.Quantity;
          sums.Value += plainNumber(r.Value);
          return row;
        });
      return new StreamedData(
        { kind: 'rows', rows },
        () => countRows(trx, query),
        () => summaryTotals(sums),
        end,
      );
    },
  );
}

/** The answer's row as the query names it: counts as numbers, the value from minor units. */
function salesRow(r: CustomerSalesSums) {
  return { ...r, InvoiceCount: plainNumber(r.InvoiceCount), Quantity: plainNumber(r.Quantity), Value: amount(r.Value) };
}

/** Totals are the sums of the rows (money summed in minor units, then converted once). */
function summaryTotals(sums: Record<SalesMeasure, number>): Record<string, number> {
  return { ...sums, Value: amount(sums.Value) };
}

/** A group with nothing ordered or delivered. */
const NO_DELIVERY: Readonly<DeliveryRecord> = {
  ordered_quantity: 0,
  ordered_value: 0,
  delivered_quantity: 0,
  delivered_value: 0,
  pending_quantity: 0,
  pending_value: 0,
};

const DELIVERY_MEASURE_FIELDS = [
  'OrderedQuantity',
  'OrderedValue',
  'DeliveredQuantity',
  'DeliveredValue',
  'PendingQuantity',
  'PendingValue',
  'DeliveryPercent',
] as const;

function deliveryMeasures(r: DeliveryRecord) {
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
function deliveryTotals(records: readonly DeliveryRecord[]): Record<string, number> {
  const sum: DeliveryRecord = { ...NO_DELIVERY };
  for (const r of records) {
    for (const key of DELIVERY_RECORD_COLUMNS) sum[key] += r[key];
  }
  return { ...deliveryMeasures(sum) };
}

export const ORDER_DELIVERY_FIELDS = [
  'CustomerCode',
  'CustomerName',
  'StateCode',
  'ZoneCode',
  ...DELIVERY_MEASURE_FIELDS,
] as const;
export type OrderDeliveryField = (typeof ORDER_DELIVERY_FIELDS)[number];

/**
 * getOrderVDeliverySummaryRecords: per customer, the orders placed in the date range against what was invoiced for them
 * up to its end. Streamed in the order asked of SQL, as the sales summary; by DeliveryPercent, worked out here, sorted here.
 */
export async function orderDeliverySummary(
  db: Kysely<Database>,
  input: ReportFilterInput,
  order: Sort<OrderDeliveryField>,
  allowed?: OfficerBound,
  streams?: Streams,
): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  if (filters === undefined) return { data: [], totals: deliveryTotals([]) };
  const column = RECORD_COLUMNS[order.field];
  const sqlOrder = column === undefined ? undefined : { column, descending: order.direction === 'desc' };
  const inSqlOrder = async (trx: Kysely<Database>) =>
    sqlOrder !== undefined && (await sqlOrderHolds(trx, sqlOrder.column));
  return sortedReport<ReturnType<typeof deliveryRow>, OrderDeliveryField, 'CustomerCode'>(
    db,
    streams,
    order,
    'CustomerCode',
    inSqlOrder,
    async (trx, end) => {
      const query = await deliveriesPerCustomerQuery(trx, filters);
      const sums: DeliveryRecord = { ...NO_DELIVERY };
      const rows = () =>
        rowBatches(
          trx,
          inOrder(trx, query, sqlOrder ?? { column: 'CustomerCode', descending: false }),
          (r: CustomerDeliverySums) => {
            const record = deliveryRecord(r);
            for (const key of DELIVERY_RECORD_COLUMNS) sums[key] += record[key];
            return deliveryRow(r, record);
          },
        );
      return new StreamedData(
        { kind: 'rows', rows },
        () => countRows(trx, query),
        () => deliveryTotals([sums]),
        end,
      );
    },
  );
}

/** The record column behind each field of the row (deliveryRow); DeliveryPercent is worked out here, not in SQL. */
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

function deliveryRow(r: CustomerColumns, measures: DeliveryRecord) {
  return {
    CustomerCode: r.CustomerCode,
    CustomerName: r.CustomerName,
    StateCode: r.StateCode,
    ZoneCode: r.ZoneCode,
    ...deliveryMeasures(measures),
  };
}

export const OFFICER_DELIVERY_FIELDS = [
  'SalesOfficer',
  'SalesOfficerName',
  'ManagerId',
  ...DELIVERY_MEASURE_FIELDS,
] as const;
export type OfficerDeliveryField = (typeof OFFICER_DELIVERY_FIELDS)[number];

export interface OfficerChoice {
  managerId?: string;
  salesOfficer?: string;
}

/**
 * getOrderVsDeliveryOfficer: the measures per sales officer, by the order's officer. An inactive officer appears only
 * with orders in the period, so past orders stay visible without every former officer cluttering the report.
 */
export async function officerDeliverySummary(
  db: Kysely<Database>,
  choice: OfficerChoice,
  input: ReportFilterInput,
  order: Sort<OfficerDeliveryField>,
  allowed?: OfficerBound,
): Promise<OperationResult> {
  const scope = await officerIds(db, choice, allowed);
  const officers = scope?.length === 0 ? [] : await selectSalesOfficers(db, scope);
  const filters = await resolveFilters(db, input);
  const measures =
    officers.length === 0 || filters === undefined
      ? new Map<string, DeliveryRecord>()
      : await deliveriesPerOfficer(db, filters, scope && officers.map((o) => o.id));
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
  return {
    SalesOfficer: r.officer.id,
    SalesOfficerName: r.officer.name,
    ManagerId: r.officer.manager_id,
    ...deliveryMeasures(r.measures),
  };
}

type Value = string | number | null;

/** The 1st of AsOf's month and the 1st of the fiscal year that contains AsOf. */
export function periodOf(asOf: string, fiscalYearStartMonth: number): Period {
  const [y, m] = asOf.split('-').map(Number);
  const fiscalYear = m >= fiscalYearStartMonth ? y : y - 1;
  return { asOf, monthStart: isoDate(y, m, 1), yearStart: isoDate(fiscalYear, fiscalYearStartMonth, 1) };
}

/**
 * getSalesReportStats: a dashboard of the user's scope (statsScope) as of a date, each figure one aggregate
 * query restricted to the scope's customers (repository.ts).
 */
export async function salesStats(db: Kysely<Database>, scope: Awaited<ReturnType<typeof statsScope>>, period: Period) {
  const officers = scope.officers;
  // A scope of nobody reads nothing: every figure is zero.
  const nothing = [{ mtd: 0, ytd: 0 }, { orders: 0, value: 0 }, 0, 0, 0, 0, 0, 0] as const;
  const [sales, pending, collections, outstanding, warranty, activities, customers, salesOfficers] =
    officers?.length === 0
      ? nothing
      : await Promise.all([
          salesTotals(db, officers, period),
          pendingOrders(db, officers, period.asOf),
          collectionsTotal(db, officers, period),
          outstandingTotal(db, officers, period),
          openWarrantyRequests(db, officers),
          pendingActivities(db, officers),
          activeCustomers(db, officers),
          activeSalesOfficers(db, officers),
        ]);
  return {
    AsOf: period.asOf,
    Username: scope.username,
    Role: scope.role,
    SalesMTD: amount(sales.mtd),
    SalesYTD: amount(sales.ytd),
    PendingOrders: pending.orders,
    PendingOrderValue: amount(pending.value),
    CollectionsMTD: amount(collections),
    Outstanding: amount(outstanding),
    OpenWarrantyRequests: warranty,
    PendingActivities: activities,
    Customers: customers,
    SalesOfficers: salesOfficers,
  };
}

/**
 * Whose figures getSalesReportStats shows: the user's scope, which Role may narrow but never widen. No
 * Username is the company-wide view, an ADMIN who owns no customers.
 */
export async function statsScope(
  db: Kysely<Database>,
  username: string | undefined,
  role: Role | undefined,
  allowed?: OfficerBound,
) {
  const user = username === undefined ? undefined : await findUser(db, username);
  const unknown = () => notFound('Username', `Username: no user '${username}'`);
  if (username !== undefined && user === undefined) throw unknown();
  if (user !== undefined) assertVisible(allowed, user.id, unknown);
  const storedRole: Role = user?.role ?? 'ADMIN';
  const effective = role ?? storedRole;
  if (ROLE_RANK[effective] > ROLE_RANK[storedRole]) {
    throw new AppError('FORBIDDEN', `Role: ${effective} is above the user's role ${storedRole}`, 'Role');
  }
  return { username: user?.username ?? null, role: effective, officers: await scopeOfficers(db, user, effective) };
}

/** The officers whose customers count; undefined = every customer. */
async function scopeOfficers(
  db: Kysely<Database>,
  user: User | undefined,
  effective: Role,
): Promise<string[] | undefined> {
  if (effective === 'SO') return user === undefined ? [] : [user.id];
  return user === undefined ? undefined : officerScope(db, user);
}

/**
 * Orders report rows by one of their fields here, ties by the row key, so both engines answer in the same order
 * whatever their collation. Where SQL's order is the answer's, a report streams as SQL gives its rows (SqlOrder).
 */
export function sortRows<R extends Record<F | K, Value>, F extends string, K extends string>(
  rows: R[],
  order: Sort<F>,
  key: K,
): R[] {
  const sign = order.direction === 'desc' ? -1 : 1;
  const compare = (a: R, b: R) => sign * compareValues(a[order.field], b[order.field]) || compareValues(a[key], b[key]);
  return alreadySorted(rows, compare) ? rows : [...rows].sort(compare);
}

/**
 * A report's rows built in a snapshot by `build` (streamed.ts, streamedResult) in the order asked of
 * SQL: streamed when the caller takes streams and `inSqlOrder` says SQL's order is the answer's, else
 * read whole, and sorted here when it is not.
 */
export async function sortedReport<R extends Record<F | K, Value>, F extends string, K extends string>(
  db: Kysely<Database>,
  streams: Streams | undefined,
  order: Sort<F>,
  key: K,
  inSqlOrder: (trx: Kysely<Database>) => Promise<boolean>,
  build: (trx: Kysely<Database>, end: () => Promise<void>) => Promise<StreamedData>,
): Promise<OperationResult> {
  let ordered = false;
  const data = await inSnapshot(db, streams, async (trx, end) => {
    ordered = await inSqlOrder(trx);
    return build(trx, end);
  });
  if (streams && ordered) return { data };
  const whole = await drain(data);
  return ordered ? whole : { ...whole, data: sortRows(whole.data as R[], order, key) };
}

function alreadySorted<R>(rows: readonly R[], compare: (a: R, b: R) => number): boolean {
  for (let i = 1; i < rows.length; i++) if (compare(rows[i - 1], rows[i]) > 0) return false;
  return true;
}
