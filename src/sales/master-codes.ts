/**
 * Codes arrive in any case (domain.md, "Codes compare case-insensitively"). They are resolved here, on
 * the small master tables, to the spelling stored, so the queries on the large tables (invoices,
 * orders and their lines) compare their indexed columns with plain equality.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Range } from '../operations/parse';

type Db = Kysely<Database>;

/** The stored id of a user, or undefined. */
export async function storedUserId(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('id').where((eb) => eb(eb.fn('upper', ['id']), '=', id.toUpperCase())).executeTakeFirst();
  return row?.id;
}

export async function storedCustomerCode(db: Db, code: string): Promise<string | undefined> {
  const row = await db.selectFrom('customers').select('code').where((eb) => eb(eb.fn('upper', ['code']), '=', code.toUpperCase())).executeTakeFirst();
  return row?.code;
}

export async function storedProfitCenter(db: Db, code: string): Promise<string | undefined> {
  const row = await db.selectFrom('profit_centers').select('code').where((eb) => eb(eb.fn('upper', ['code']), '=', code.toUpperCase())).executeTakeFirst();
  return row?.code;
}

/**
 * The categories whose upper-cased code lies in the (upper-cased) range. The table is small, so the
 * comparison is done here with the same byte order parse.ts `codeRange` uses to validate From <= To.
 */
export async function categoriesInRange(db: Db, range: Range<string>): Promise<string[]> {
  const rows = await db.selectFrom('product_categories').select('code').execute();
  return rows
    .map((r) => r.code)
    .filter((code) => {
      const upper = code.toUpperCase();
      return (range.from === undefined || upper >= range.from) && (range.to === undefined || upper <= range.to);
    });
}

/** The states named in `states` and lying in one of `zones` (either list absent = no condition). */
export async function statesIn(db: Db, zones: string[] | undefined, states: string[] | undefined): Promise<string[]> {
  const rows = await db.selectFrom('states').select(['code', 'zone_code']).execute();
  return rows
    .filter((s) => (zones === undefined || zones.includes(s.zone_code.toUpperCase())) && (states === undefined || states.includes(s.code.toUpperCase())))
    .map((s) => s.code);
}

