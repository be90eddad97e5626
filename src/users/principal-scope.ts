/**
 * What the authenticated user may see or change, whatever the parameters say: a set of officers
 * (hierarchy.ts, officerScope). A customer's account belongs to the officer who owns the customer
 * today, field work to the officer on the row (docs/behaviour.md, "Records outside the caller's scope").
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

/** FORBIDDEN naming `field`, not the officer: the caller may have sent a username the answer must not map to an id. */
export function assertOfficerInScope(allowed: OfficerBound, officerId: string, field: string): void {
  if (!officerAllowed(allowed, officerId)) throw outsideScope(field, 'the officer it names');
}

/** Outside the bound a record is `absent()`, as one that does not exist: a refusal tells neither that it exists nor whose it is. */
export function assertVisible(allowed: OfficerBound, officerId: string, absent: () => AppError): void {
  if (!officerAllowed(allowed, officerId)) throw absent();
}

/** Whether the (stored) customer code belongs to an officer within the bound (an unknown one is). */
export async function customerAllowed(
  db: Kysely<Database>,
  allowed: OfficerBound,
  customerCode: string,
): Promise<boolean> {
  if (allowed === undefined) return true;
  const row = await db
    .selectFrom('customers')
    .select('sales_officer_id')
    .where('code', '=', customerCode)
    .executeTakeFirst();
  return row === undefined || allowed.includes(row.sales_officer_id);
}

/** FORBIDDEN naming `field` when the (stored) customer code belongs to an officer outside the bound. */
export async function assertCustomerInScope(
  db: Kysely<Database>,
  allowed: OfficerBound,
  customerCode: string,
  field: string,
): Promise<void> {
  if (!(await customerAllowed(db, allowed, customerCode))) throw outsideScope(field, `customer ${customerCode}`);
}

/** A read's filter naming an officer: FORBIDDEN when known and outside the bound; an unknown one is the query's to answer. */
export async function assertNamedOfficerInScope(
  db: Kysely<Database>,
  allowed: OfficerBound,
  named: string | undefined,
  field: string,
): Promise<void> {
  if (allowed === undefined || named === undefined) return;
  const officerId = await storedUserId(db, named);
  if (officerId !== undefined) assertOfficerInScope(allowed, officerId, field);
}

/** The same for a filter naming a customer. */
export async function assertNamedCustomerInScope(
  db: Kysely<Database>,
  allowed: OfficerBound,
  named: string | undefined,
  field: string,
): Promise<void> {
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
