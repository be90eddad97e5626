/**
 * What the authenticated user (OperationContext.principal) may see or change, whatever the parameters
 * say (the authentication issue: "the authenticated user's role bounds what every operation returns").
 *
 * The bound is a set of officers, officerScope() of hierarchy.ts: an SO themselves, an AM or ZM
 * themselves and everyone below them, the ADMIN everything. With authentication off there is no
 * principal and no bound, so every operation behaves as the drop-in contract describes.
 *
 * Two kinds of data follow from the officer set:
 * - a customer's account (its documents, balances, PCNs, profit centers) belongs to the officer who
 *   owns the customer today (customers.sales_officer_id), as getSalesReportStats already counts it;
 * - field work (activities, complaints, enquiries, warranty requests) and the per-officer report
 *   belong to the officer recorded on the row.
 * The bound is applied in SQL (a condition on the officer or customer column), never by filtering an
 * aggregate's rows afterwards.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import type { OperationContext } from '../operations/types';
import { officerScope } from './hierarchy';
import { storedCustomerCode, storedUserId } from '../operations/master-codes';

/** The officers whose data the principal may see; undefined = no bound (no principal, or ADMIN). */
export type OfficerBound = readonly string[] | undefined;

export async function allowedOfficers(ctx: Pick<OperationContext, 'db' | 'principal'>): Promise<OfficerBound> {
  return ctx.principal === undefined ? undefined : officerScope(ctx.db, ctx.principal);
}

export function officerAllowed(allowed: OfficerBound, officerId: string): boolean {
  return allowed === undefined || allowed.includes(officerId);
}

export function outsideScope(field: string, what: string): AppError {
  return new AppError('FORBIDDEN', `${field}: ${what} is outside the authenticated user's scope`, field);
}

/**
 * FORBIDDEN naming `field` when the (stored) officer id lies outside the bound. The text does not
 * name the officer: the caller may have sent a username, and the answer must not map it to an id.
 */
export function assertOfficerInScope(allowed: OfficerBound, officerId: string, field: string): void {
  if (!officerAllowed(allowed, officerId)) throw outsideScope(field, 'the officer it names');
}

/**
 * A record the caller refers to (a request, an activity, a user they name), looked up within the
 * bound: outside it the answer is `absent()`, the one for a record that does not exist, so a refusal
 * tells neither that the record exists nor whose it is.
 */
export function assertVisible(allowed: OfficerBound, officerId: string, absent: () => AppError): void {
  if (!officerAllowed(allowed, officerId)) throw absent();
}

/** Whether the (stored) customer code belongs to an officer within the bound (an unknown one is). */
export async function customerAllowed(db: Kysely<Database>, allowed: OfficerBound, customerCode: string): Promise<boolean> {
  if (allowed === undefined) return true;
  const row = await db.selectFrom('customers').select('sales_officer_id').where('code', '=', customerCode).executeTakeFirst();
  return row === undefined || allowed.includes(row.sales_officer_id);
}

/** FORBIDDEN naming `field` when the (stored) customer code belongs to an officer outside the bound. */
export async function assertCustomerInScope(db: Kysely<Database>, allowed: OfficerBound, customerCode: string, field: string): Promise<void> {
  if (!(await customerAllowed(db, allowed, customerCode))) throw outsideScope(field, `customer ${customerCode}`);
}

/**
 * A read's filter naming an officer, checked before its query: FORBIDDEN when the officer is known
 * and outside the bound. Without a bound nothing is read; an unknown officer is the query's to answer
 * (an empty result).
 */
export async function assertNamedOfficerInScope(db: Kysely<Database>, allowed: OfficerBound, named: string | undefined, field: string): Promise<void> {
  if (allowed === undefined || named === undefined) return;
  const officerId = await storedUserId(db, named);
  if (officerId !== undefined) assertOfficerInScope(allowed, officerId, field);
}

/** The same for a filter naming a customer. */
export async function assertNamedCustomerInScope(db: Kysely<Database>, allowed: OfficerBound, named: string | undefined, field: string): Promise<void> {
  if (allowed === undefined || named === undefined) return;
  const customerCode = await storedCustomerCode(db, named);
  if (customerCode !== undefined) await assertCustomerInScope(db, allowed, customerCode, field);
}

/** The officers both lists allow (undefined = no bound on that side). */
export function intersectOfficers(a: OfficerBound, b: OfficerBound): OfficerBound {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a.filter((id) => b.includes(id));
}
