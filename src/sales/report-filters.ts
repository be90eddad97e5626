/**
 * The filters the sales reports share (docs/behaviour.md, "Sales and orders"), resolved to the stored
 * codes so big tables are compared on their indexed columns.
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DateOrder } from '../config';
import type { Database } from '../db/schema';
import { code, codeRange, dateRange, list, type Fields, type Range } from '../operations/parse';
import {
  categoriesInRange,
  statesIn,
  storedCustomerCode,
  storedProfitCenter,
  storedUserId,
} from '../operations/master-codes';
import { assertCustomerInScope, assertOfficerInScope, type OfficerBound } from '../users/principal-scope';
import { inValues } from '../db/sql-in';

/** The filters as the caller wrote them (codes upper-cased by parse.ts). */
export interface ReportFilterInput {
  salesOfficer?: string;
  customers: Range<string>;
  profitCenter?: string;
  dates: Range<string>;
  categories: Range<string>;
  zones?: string[];
  states?: string[];
}

/** The filters with every code resolved to its stored spelling; absent = no condition. */
export interface ResolvedFilters {
  salesOfficer?: string;
  /** One customer (From only, or From = To). */
  customer?: string;
  /** A customer code range, upper-cased bounds (compared with upper() on the customers table). */
  customerRange?: Range<string>;
  profitCenter?: string;
  dates: Range<string>;
  categories?: string[];
  states?: string[];
  /** The authenticated user's bound: only customers owned by these officers (principal-scope.ts). */
  customerOfficers?: readonly string[];
}

const NO_CODES: Range<string> = {};

/** The parameters parseReportFilters reads: an operation that uses it declares every one. */
type ReportFilterParam =
  | 'SalesOfficer'
  | 'FromCustomer'
  | 'ToCustomer'
  | 'profitCenter'
  | 'FromDate'
  | 'ToDate'
  | 'FromPCat'
  | 'ToPCat'
  | 'Zones'
  | 'States';

/** The parameters parseAreaFilters reads. */
export type AreaFilterParam = 'FromDate' | 'ToDate' | 'Zones' | 'States';

export function parseReportFilters(fields: Fields<ReportFilterParam>, order: DateOrder): ReportFilterInput {
  return {
    salesOfficer: code(fields, 'SalesOfficer'),
    customers: codeRange(fields, 'FromCustomer', 'ToCustomer'),
    profitCenter: code(fields, 'profitCenter'),
    dates: dateRange(fields, 'FromDate', 'ToDate', order),
    categories: codeRange(fields, 'FromPCat', 'ToPCat'),
    zones: list(fields, 'Zones'),
    states: list(fields, 'States'),
  };
}

/** Only dates, Zones and States (getOrderVsDeliveryOfficer). */
export function parseAreaFilters(fields: Fields<AreaFilterParam>, order: DateOrder): ReportFilterInput {
  return {
    customers: NO_CODES,
    dates: dateRange(fields, 'FromDate', 'ToDate', order),
    categories: NO_CODES,
    zones: list(fields, 'Zones'),
    states: list(fields, 'States'),
  };
}

/**
 * Resolves the codes; undefined when one names nothing, so the report is empty. An officer or single
 * customer named outside `allowed` is FORBIDDEN, and rows keep to the allowed officers' customers.
 */
export async function resolveFilters(
  db: Kysely<Database>,
  input: ReportFilterInput,
  allowed?: OfficerBound,
): Promise<ResolvedFilters | undefined> {
  const resolved: ResolvedFilters = { dates: input.dates, customerOfficers: allowed };
  if (input.salesOfficer !== undefined) {
    resolved.salesOfficer = await storedUserId(db, input.salesOfficer);
    if (resolved.salesOfficer === undefined) return undefined;
    assertOfficerInScope(allowed, resolved.salesOfficer, 'SalesOfficer');
  }
  const { from, to } = input.customers;
  if (from !== undefined && from === to) {
    resolved.customer = await storedCustomerCode(db, from);
    if (resolved.customer === undefined) return undefined;
    await assertCustomerInScope(db, allowed, resolved.customer, 'FromCustomer');
  } else if (from !== undefined || to !== undefined) {
    resolved.customerRange = input.customers;
  }
  if (input.profitCenter !== undefined) {
    resolved.profitCenter = await storedProfitCenter(db, input.profitCenter);
    if (resolved.profitCenter === undefined) return undefined;
  }
  if (input.categories.from !== undefined || input.categories.to !== undefined) {
    resolved.categories = await categoriesInRange(db, input.categories);
    if (resolved.categories.length === 0) return undefined;
  }
  if (input.zones !== undefined || input.states !== undefined) {
    resolved.states = await statesIn(db, input.zones, input.states);
    if (resolved.states.length === 0) return undefined;
  }
  return resolved;
}

/** Where the filters apply on a table the reports read (qualified column names, constants of the code). */
export interface KeyColumns {
  /** The document's officer (invoice or order), profit center and customer. */
  officer: string;
  profitCenter: string;
  customer: string;
}

/**
 * The filters other than dates and categories as SQL conditions. Those on the customer record become
 * one semi-join on customers, read through its own indexes and never joined row by row.
 */
export function keyConditions(f: ResolvedFilters, c: KeyColumns): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (f.salesOfficer !== undefined) conditions.push(sql<SqlBool>`${sql.ref(c.officer)} = ${f.salesOfficer}`);
  if (f.customer !== undefined) conditions.push(sql<SqlBool>`${sql.ref(c.customer)} = ${f.customer}`);
  const customerConditions = customerRecordConditions(f);
  if (customerConditions.length > 0) {
    conditions.push(
      sql<SqlBool>`${sql.ref(c.customer)} in (select code from customers where ${sql.join(customerConditions, sql` and `)})`,
    );
  }
  if (f.profitCenter !== undefined) conditions.push(sql<SqlBool>`${sql.ref(c.profitCenter)} = ${f.profitCenter}`);
  return conditions;
}

/** Code range (upper() on the small customers table, codes compare without regard to case), states, owners. */
function customerRecordConditions(f: ResolvedFilters): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (f.customerRange?.from !== undefined) conditions.push(sql<SqlBool>`upper(code) >= ${f.customerRange.from}`);
  if (f.customerRange?.to !== undefined) conditions.push(sql<SqlBool>`upper(code) <= ${f.customerRange.to}`);
  if (f.states !== undefined) conditions.push(inValues('state_code', f.states));
  if (f.customerOfficers !== undefined) conditions.push(inValues('sales_officer_id', f.customerOfficers));
  return conditions;
}
