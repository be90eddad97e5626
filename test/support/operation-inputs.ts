/**
 * A non-ASCII customer name for the tests on the demo data; the calls of every operation are
 * src/demo-data/operation-calls.ts's demoDataCalls.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';

import { firstUserOf } from '../../src/demo-data/operation-calls';

/** A name with letters outside ASCII, markup characters and an astral-plane character (docs/v2.md). */
export const NON_ASCII_NAME = 'Śrī Gaṇeśa Traders & Sons <Pune> 𝄞';

/**
 * Gives the first customer of the first sales officer a non-ASCII name, so the answers that show
 * customer names carry one; returns that customer's code.
 */
export async function nameCustomerNonAscii(db: Kysely<Database>): Promise<string> {
  const officer = await firstUserOf(db, 'SO');
  const customer = await db
    .selectFrom('customers')
    .select('code')
    .where('sales_officer_id', '=', officer)
    .orderBy('code')
    .executeTakeFirstOrThrow();
  await db.updateTable('customers').set({ name: NON_ASCII_NAME }).where('code', '=', customer.code).execute();
  return customer.code;
}
