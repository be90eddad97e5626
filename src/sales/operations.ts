/**
 * The sales reports (domain.md, "The operations"): the edge that parses the fields by the parameter
 * conventions (parse.ts) and hands plain typed input to the report functions of this folder.
 */
import type { Role } from '../db/schema';
import { dateOf, oneOf, optionalDate, sort, text } from '../operations/parse';
import type { Operation } from '../operations/types';
import { officerDeliverySummary, OFFICER_DELIVERY_FIELDS } from './officer-delivery';
import { orderDeliverySummary, ORDER_DELIVERY_FIELDS } from './order-delivery-summary';
import { parseAreaFilters, parseReportFilters } from './report-filters';
import { periodOf, salesStats } from './sales-stats';
import { SALES_SUMMARY_FIELDS, salesSummary } from './sales-summary';
import { statsScope } from './stats-scope';
import { allowedOfficers } from '../users/principal-scope';

/** The parameters of the per-customer reports: the shared filters of report-filters.ts and the sort. */
const CUSTOMER_REPORT_PARAMS: readonly string[] = ['SalesOfficer', 'FromCustomer', 'ToCustomer', 'profitCenter', 'FromDate', 'ToDate', 'FromPCat', 'ToPCat', 'SortBy', 'SortDirection', 'Zones', 'States'];

export const getSalesSummaryRecords: Operation = {
  name: 'getSalesSummaryRecords',
  params: CUSTOMER_REPORT_PARAMS,
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    const filters = parseReportFilters(fields, ctx.settings.dateOrder);
    return salesSummary(ctx.db, filters, sort(fields, SALES_SUMMARY_FIELDS, 'CustomerCode'), await allowedOfficers(ctx));
  },
};

export const getOrderVDeliverySummaryRecords: Operation = {
  name: 'getOrderVDeliverySummaryRecords',
  params: CUSTOMER_REPORT_PARAMS,
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    const filters = parseReportFilters(fields, ctx.settings.dateOrder);
    return orderDeliverySummary(ctx.db, filters, sort(fields, ORDER_DELIVERY_FIELDS, 'CustomerCode'), await allowedOfficers(ctx));
  },
};

export const getOrderVsDeliveryOfficer: Operation = {
  name: 'getOrderVsDeliveryOfficer',
  params: ['ManagerId', 'SalesOfficer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection', 'Zones', 'States'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    const choice = { managerId: text(fields, 'ManagerId'), salesOfficer: text(fields, 'SalesOfficer') };
    const filters = parseAreaFilters(fields, ctx.settings.dateOrder);
    return officerDeliverySummary(ctx.db, choice, filters, sort(fields, OFFICER_DELIVERY_FIELDS, 'SalesOfficer'), await allowedOfficers(ctx));
  },
};

const ROLES: Readonly<Record<string, Role>> = { ADMIN: 'ADMIN', ZM: 'ZM', AM: 'AM', SO: 'SO' };

export const getSalesReportStats: Operation = {
  name: 'getSalesReportStats',
  params: ['Username', 'Role'],
  fields: ['AsOf'],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    const role = oneOf(fields, 'Role', ROLES);
    const asOf = optionalDate(fields, 'AsOf', ctx.settings.dateOrder) ?? dateOf(ctx.clock.now());
    // With an authenticated user, no Username is that user (principal-scope.ts).
    const username = text(fields, 'Username') ?? ctx.principal?.username;
    const scope = await statsScope(ctx.db, username, role, await allowedOfficers(ctx));
    return { data: await salesStats(ctx.db, scope, periodOf(asOf, ctx.settings.fiscalYearStartMonth)) };
  },
};

export const salesOperations: readonly Operation[] = [getSalesSummaryRecords, getOrderVDeliverySummaryRecords, getOrderVsDeliveryOfficer, getSalesReportStats];
