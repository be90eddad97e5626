/** Queries behind the list-filling lookups (FillAreaManagers, FillProfitCenterForCustomer). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface AreaManagerRow {
  Id: string;
  Username: string;
  Name: string;
  ZoneCode: string | null;
}

export interface ProfitCenterRow {
  Code: string;
  Name: string;
}

/** Active area managers, all of them or those with the given ids; by name, then id. */
export async function activeAreaManagers(db: Kysely<Database>, ids?: readonly string[]): Promise<AreaManagerRow[]> {
  if (ids !== undefined && ids.length === 0) return [];
  let query = db
    .selectFrom('users')
    .select(['id as Id', 'username as Username', 'name as Name', 'zone_code as ZoneCode'])
    .where('role', '=', 'AM')
    .where('active', '=', 1);
  if (ids !== undefined) query = query.where('id', 'in', ids);
  return query.orderBy('name').orderBy('id').execute();
}

export async function allProfitCenters(db: Kysely<Database>): Promise<ProfitCenterRow[]> {
  return db.selectFrom('profit_centers').select(['code as Code', 'name as Name']).orderBy('code').execute();
}

/**
 * The profit centers a customer (stored code) is attached to, by code; none when `customerOfficers`
 * is given and the customer is owned by none of them (the authenticated user's scope).
 */
export async function profitCentersOfCustomer(db: Kysely<Database>, customerCode: string, customerOfficers?: readonly string[]): Promise<ProfitCenterRow[]> {
  return db
    .selectFrom('customer_profit_centers')
    .innerJoin('profit_centers', 'profit_centers.code', 'customer_profit_centers.profit_center_code')
    .select(['profit_centers.code as Code', 'profit_centers.name as Name'])
    .where('customer_profit_centers.customer_code', '=', customerCode)
    .$if(customerOfficers !== undefined, (qb) =>
      qb.where('customer_profit_centers.customer_code', 'in', (eb) => eb.selectFrom('customers').select('code').where('sales_officer_id', 'in', customerOfficers!)),
    )
    .orderBy('profit_centers.code')
    .execute();
}
