/**
 * getSalesReportStats (docs/behaviour.md): a dashboard of the user's scope (stats-scope.ts) as of a
 * date, each figure one aggregate query restricted to the scope's customers (repository.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/values';
import { isoDate } from '../operations/parse';
import type { StatsScope } from './stats-scope';
import { type Period, activeCustomers, activeSalesOfficers, collectionsTotal, openWarrantyRequests, outstandingTotal, pendingActivities, pendingOrders, salesTotals } from './repository';

type Db = Kysely<Database>;

/** The 1st of AsOf's month and the 1st of the fiscal year that contains AsOf. */
export function periodOf(asOf: string, fiscalYearStartMonth: number): Period {
  const [y, m] = asOf.split('-').map(Number);
  const fiscalYear = m >= fiscalYearStartMonth ? y : y - 1;
  return { asOf, monthStart: isoDate(y, m, 1), yearStart: isoDate(fiscalYear, fiscalYearStartMonth, 1) };
}

export async function salesStats(db: Db, scope: StatsScope, period: Period) {
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
