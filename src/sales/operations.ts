/**
 * The sales reports (docs/behaviour.md): the edge that parses the fields by the parameter
 * conventions (parse.ts) and hands plain typed input to the report functions of this folder.
 */
import type { Kysely } from 'kysely';
import type { Database, Role } from '../db/schema';
import { code, dateOf, oneOf, optionalDate, sort, user, type Sort, type Sorting } from '../operations/parse';
import { readOperation, type Operation, type OperationContext, type OperationResult } from '../operations/types';
import {
  officerDeliverySummary,
  OFFICER_DELIVERY_FIELDS,
  orderDeliverySummary,
  ORDER_DELIVERY_FIELDS,
  periodOf,
  SALES_SUMMARY_FIELDS,
  salesStats,
  salesSummary,
  statsScope,
  type OfficerChoice,
  type OfficerDeliveryField,
  type OrderDeliveryField,
  type SalesSummaryField,
} from './reports';
import { parseAreaFilters, parseReportFilters, resolveFilters, type ReportFilterInput } from './report-filters';
import {
  allowedOfficers,
  assertNamedOfficerInScope,
  assertOfficerInScope,
  type OfficerBound,
} from '../users/principal-scope';
import { storedUserId } from '../operations/master-codes';
import type { Streams } from '../operations/streamed';
import { field, nullable, record, recordType, rows, type FieldType, type ResultType } from '../operations/results';

// ---- what the reports answer (docs/results.md) ---------------------------------------------------

const CUSTOMER = {
  CustomerCode: field.string,
  CustomerName: field.string,
  StateCode: field.string,
  ZoneCode: field.string,
};
const SALES_MEASURES = { InvoiceCount: field.integer, Quantity: field.integer, Value: field.money };
const DELIVERY_MEASURES: Record<string, FieldType> = {
  OrderedQuantity: field.integer,
  OrderedValue: field.money,
  DeliveredQuantity: field.integer,
  DeliveredValue: field.money,
  PendingQuantity: field.integer,
  PendingValue: field.money,
  DeliveryPercent: field.decimal,
};
const DELIVERY_TOTALS = recordType('OrderDeliveryTotals', DELIVERY_MEASURES);

const SALES_SUMMARY_RESULT = rows(
  recordType('SalesSummaryRecord', { ...CUSTOMER, SalesOfficer: field.string, ...SALES_MEASURES }),
  {
    totals: recordType('SalesSummaryTotals', SALES_MEASURES),
  },
);
const ORDER_DELIVERY_RESULT = rows(recordType('OrderDeliveryRecord', { ...CUSTOMER, ...DELIVERY_MEASURES }), {
  totals: DELIVERY_TOTALS,
});
const OFFICER_DELIVERY_RESULT = rows(
  recordType('OfficerDeliveryRecord', {
    SalesOfficer: field.string,
    SalesOfficerName: field.string,
    ManagerId: nullable(field.string),
    ...DELIVERY_MEASURES,
  }),
  { totals: DELIVERY_TOTALS },
);
const SALES_STATS_RESULT = record(
  recordType('SalesReportStats', {
    AsOf: field.date,
    Username: nullable(field.string),
    Role: field.string,
    SalesMTD: field.money,
    SalesYTD: field.money,
    PendingOrders: field.integer,
    PendingOrderValue: field.money,
    CollectionsMTD: field.money,
    Outstanding: field.money,
    OpenWarrantyRequests: field.integer,
    PendingActivities: field.integer,
    Customers: field.integer,
    SalesOfficers: field.integer,
  }),
);

/** The parameters of the per-customer reports: the shared filters of report-filters.ts and the sort. */
const CUSTOMER_REPORT_PARAMS = [
  'SalesOfficer',
  'FromCustomer',
  'ToCustomer',
  'profitCenter',
  'FromDate',
  'ToDate',
  'FromPCat',
  'ToPCat',
  'SortBy',
  'SortDirection',
  'Zones',
  'States',
] as const;

const SALES_SUMMARY_SORTING: Sorting<SalesSummaryField> = { fields: SALES_SUMMARY_FIELDS, fallback: 'CustomerCode' };
const ORDER_DELIVERY_SORTING: Sorting<OrderDeliveryField> = { fields: ORDER_DELIVERY_FIELDS, fallback: 'CustomerCode' };
const OFFICER_DELIVERY_SORTING: Sorting<OfficerDeliveryField> = {
  fields: OFFICER_DELIVERY_FIELDS,
  fallback: 'SalesOfficer',
};

/** A per-customer report: the shared filters, its sort, and the report read with them. */
function customerReportOperation<F extends string>(
  name: string,
  returns: ResultType,
  sorting: Sorting<F>,
  report: (
    db: Kysely<Database>,
    filters: ReportFilterInput,
    order: Sort<F>,
    allowed: OfficerBound,
    streams: Streams | undefined,
  ) => Promise<OperationResult>,
) {
  return readOperation({
    name,
    params: CUSTOMER_REPORT_PARAMS,
    fields: [],
    returns,
    sorting,
    async prepare({ fields }, ctx) {
      const filters = parseReportFilters(fields, ctx.settings.dateOrder);
      const order = sort(fields, sorting);
      const allowed = await allowedOfficers(ctx);
      // With a bound, the filters are resolved once here: an officer or customer named outside it is FORBIDDEN before the report is read.
      if (allowed !== undefined) await resolveFilters(ctx.db, filters, allowed);
      return { filters, order, allowed };
    },
    read: ({ filters, order, allowed }, ctx) => report(ctx.db, filters, order, allowed, ctx.streams),
  });
}

export const getSalesSummaryRecords = customerReportOperation(
  'getSalesSummaryRecords',
  SALES_SUMMARY_RESULT,
  SALES_SUMMARY_SORTING,
  salesSummary,
);
export const getOrderVDeliverySummaryRecords = customerReportOperation(
  'getOrderVDeliverySummaryRecords',
  ORDER_DELIVERY_RESULT,
  ORDER_DELIVERY_SORTING,
  orderDeliverySummary,
);

export const getOrderVsDeliveryOfficer = readOperation({
  name: 'getOrderVsDeliveryOfficer',
  params: ['ManagerId', 'SalesOfficer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection', 'Zones', 'States'],
  fields: [],
  returns: OFFICER_DELIVERY_RESULT,
  sorting: OFFICER_DELIVERY_SORTING,
  async prepare({ fields }, ctx) {
    const choice: OfficerChoice = { managerId: code(fields, 'ManagerId'), salesOfficer: code(fields, 'SalesOfficer') };
    const filters = parseAreaFilters(fields, ctx.settings.dateOrder);
    const order = sort(fields, OFFICER_DELIVERY_SORTING);
    const allowed = await allowedOfficers(ctx);
    await assertChoiceInScope(ctx, choice, allowed);
    return { choice, filters, order, allowed };
  },
  read: ({ choice, filters, order, allowed }, ctx) => officerDeliverySummary(ctx.db, choice, filters, order, allowed),
});

/**
 * The refusals of reports.ts (officerDeliverySummary), before the report is read: a known SalesOfficer outside the
 * bound is FORBIDDEN, and then (an unknown SalesOfficer lists nobody) a known ManagerId outside it.
 */
async function assertChoiceInScope(ctx: OperationContext, choice: OfficerChoice, allowed: OfficerBound): Promise<void> {
  if (allowed === undefined) return;
  if (choice.salesOfficer !== undefined) {
    const officer = await storedUserId(ctx.db, choice.salesOfficer);
    if (officer === undefined) return;
    assertOfficerInScope(allowed, officer, 'SalesOfficer');
  }
  await assertNamedOfficerInScope(ctx.db, allowed, choice.managerId, 'ManagerId');
}

export const ROLES: Readonly<Record<string, Role>> = { ADMIN: 'ADMIN', ZM: 'ZM', AM: 'AM', SO: 'SO' };

export const getSalesReportStats = readOperation({
  name: 'getSalesReportStats',
  params: ['Username', 'Role'],
  fields: ['AsOf'],
  returns: SALES_STATS_RESULT,
  async prepare({ fields }, ctx) {
    const role = oneOf(fields, 'Role', ROLES);
    const asOf = optionalDate(fields, 'AsOf', ctx.settings.dateOrder) ?? dateOf(ctx.clock.now());
    // With an authenticated user, no Username is that user (principal-scope.ts).
    const username = user(fields, 'Username') ?? ctx.principal?.username;
    return { scope: await statsScope(ctx.db, username, role, await allowedOfficers(ctx)), asOf };
  },
  read: async ({ scope, asOf }, ctx) => ({
    data: await salesStats(ctx.db, scope, periodOf(asOf, ctx.settings.fiscalYearStartMonth)),
  }),
});

export const salesOperations: readonly Operation[] = [
  getSalesSummaryRecords,
  getOrderVDeliverySummaryRecords,
  getOrderVsDeliveryOfficer,
  getSalesReportStats,
];
