/**
 * FillProfitCenterForCustomer (docs/behaviour.md): the profit centers of one customer, or all of them when
 * no customer is given. An unknown customer is a read that finds nothing: an empty list, and so is,
 * for an authenticated user, a customer outside their scope (principal-scope.ts). The full list is
 * master data (the divisions of the company) and stays visible to everyone.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { storedCustomerCode } from '../operations/master-codes';
import { allProfitCenters, profitCentersOfCustomer, type ProfitCenterRow } from './repository';
import type { OfficerBound } from '../users/principal-scope';

export async function profitCentersFor(db: Kysely<Database>, customerCode: string | undefined, allowed?: OfficerBound): Promise<ProfitCenterRow[]> {
  if (customerCode === undefined) return allProfitCenters(db);
  const code = await storedCustomerCode(db, customerCode);
  return code === undefined ? [] : profitCentersOfCustomer(db, code, allowed);
}
