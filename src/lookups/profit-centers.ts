/**
 * FillProfitCenterForCustomer (docs/behaviour.md): a customer's profit centers (none for an unknown
 * one or one outside the caller's scope), or every one, master data visible to all.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { storedCustomerCode } from '../operations/master-codes';
import type { OfficerBound } from '../users/principal-scope';

export async function profitCentersFor(db: Kysely<Database>, customerCode: string | undefined, allowed?: OfficerBound) {
  if (customerCode === undefined) return db.selectFrom('profit_centers').select(['code as Code', 'name as Name']).orderBy('code').execute();
  const code = await storedCustomerCode(db, customerCode);
  if (code === undefined) return [];
  return db
    .selectFrom('customer_profit_centers')
    .innerJoin('profit_centers', 'profit_centers.code', 'customer_profit_centers.profit_center_code')
    .select(['profit_centers.code as Code', 'profit_centers.name as Name'])
    .where('customer_profit_centers.customer_code', '=', code)
    .$if(allowed !== undefined, (qb) =>
      qb.where('customer_profit_centers.customer_code', 'in', (eb) => eb.selectFrom('customers').select('code').where('sales_officer_id', 'in', allowed!)),
    )
    .orderBy('profit_centers.code')
    .execute();
}
