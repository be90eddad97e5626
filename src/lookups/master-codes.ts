/**
 * Codes typed by a user, turned into the spelling stored in the master tables.
 *
 * domain.md, "Parameter conventions": codes compare without regard to case and results carry the
 * stored spelling. The case-insensitive comparison happens here, on the small master tables, so the
 * queries on the large tables (receipts, pcn, ledger_entries ...) compare their indexed columns with
 * a plain `=` on the stored spelling and keep using their indexes.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The stored code of a customer, or undefined when there is no such customer. */
export async function storedCustomerCode(db: Kysely<Database>, code: string): Promise<string | undefined> {
  const wanted = code.trim();
  const row = await db
    .selectFrom('customers')
    .select('code')
    .where((eb) => eb(eb.fn('upper', ['code']), '=', wanted.toUpperCase()))
    // Should two codes differ only by case, the exact spelling wins.
    .orderBy(sql`case when code = ${wanted} then 0 else 1 end`)
    .orderBy('code')
    .executeTakeFirst();
  return row?.code;
}

/** The stored id (employee code) of a user, or undefined when there is no such user. */
export async function storedUserId(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const wanted = id.trim();
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('upper', ['id']), '=', wanted.toUpperCase()))
    .orderBy(sql`case when id = ${wanted} then 0 else 1 end`)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * The spellings under which a document number (PDCID, PCNNO) is looked up: as typed, upper and
 * lower case. Document numbers live on large tables, so instead of upper() on the indexed column the
 * query asks for `column in (<these>)`, which the index serves.
 */
export function documentNumberSpellings(value: string): string[] {
  const v = value.trim();
  return [...new Set([v, v.toUpperCase(), v.toLowerCase()])];
}
