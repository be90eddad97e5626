/**
 * getSalesReportStats (docs/behaviour.md): a dashboard of the user's scope (statsScope) as of a
 * date, each figure one aggregate query restricted to the scope's customers (repository.ts).
 */
import type { Kysely } from 'kysely';
import type { Database, Role } from '../db/schema';
import { AppError, notFound } from '../errors';
import { amount } from '../operations/values';
import { isoDate } from '../operations/parse';
import { findUser, officerScope, ROLE_RANK, type User } from '../users/hierarchy';
import { assertVisible, type OfficerBound } from '../users/principal-scope';
import { type Period, activeCustomers, activeSalesOfficers, collectionsTotal, openWarrantyRequests, outstandingTotal, pendingActivities, pendingOrders, salesTotals } from './repository';

type Db = Kysely<Database>;

/** The 1st of AsOf's month and the 1st of the fiscal year that contains AsOf. */
export function periodOf(asOf: string, fiscalYearStartMonth: number): Period {
  const [y, m] = asOf.split('-').map(Number);
  const fiscalYear = m >= fiscalYearStartMonth ? y : y - 1;
  return { asOf, monthStart: isoDate(y, m, 1), yearStart: isoDate(fiscalYear, fiscalYearStartMonth, 1) };
}

export async function salesStats(db: Db, scope: Awaited<ReturnType<typeof statsScope>>, period: Period) {
  const officers = scope.officers;
  // A scope of nobody reads nothing: every figure is zero.
  const nothing = [{ mtd: 0, ytd: 0 }, { orders: 0, value: 0 }, 0, 0, 0, 0, 0, 0] as const;
  const [sales, pending, collections, outstanding, warranty, activities, customers, salesOfficers] = officers?.length === 0 ? nothing : await Promise.all([
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
export async function statsScope(db: Db, username: string | undefined, role: Role | undefined, allowed?: OfficerBound) {
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
async function scopeOfficers(db: Db, user: User | undefined, effective: Role): Promise<string[] | undefined> {
  if (effective === 'SO') return user === undefined ? [] : [user.id];
  return user === undefined ? undefined : officerScope(db, user);
}
