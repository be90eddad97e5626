/**
 * Codes typed by a user, turned into the spelling stored in the master tables: compared without regard
 * to case here, on the small tables, so queries on the large ones keep a plain `=` their indexes serve.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import type { Range } from './parse';

/** The stored code of a customer, or undefined when there is no such customer. */
export async function storedCustomerCode(db: Kysely<Database>, code: string): Promise<string | undefined> {
  return storedSpelling(db, 'customers', 'code', code);
}

/** The stored id (employee code) of a user, or undefined when there is no such user. */
export async function storedUserId(db: Kysely<Database>, id: string): Promise<string | undefined> {
  return storedSpelling(db, 'users', 'id', id);
}

/** The stored code of a product, or undefined when there is no such product. */
export async function storedProductCode(db: Kysely<Database>, code: string): Promise<string | undefined> {
  return storedSpelling(db, 'products', 'code', code);
}

/** The stored code of a profit center, or undefined when there is no such profit center. */
export async function storedProfitCenter(db: Kysely<Database>, code: string): Promise<string | undefined> {
  return storedSpelling(db, 'profit_centers', 'code', code);
}

type MasterTable = 'customers' | 'users' | 'profit_centers' | 'products';

/** The stored spelling of `value` in a master table's key column; of two differing by case the exact one wins. */
async function storedSpelling(
  db: Kysely<Database>,
  table: MasterTable,
  column: 'code' | 'id',
  value: string,
): Promise<string | undefined> {
  const { rows } = await sql<{
    stored: string | null;
  }>`select ${storedSpellingOf(table, column, value)} as stored`.execute(db);
  return rows[0]?.stored ?? undefined;
}

/**
 * storedSpelling as an expression of another statement, null when there is none: one round trip, and a
 * filter `column = <it>` selects nothing for an unknown code.
 */
function storedSpellingOf(table: MasterTable, column: 'code' | 'id', value: string): RawBuilder<string | null> {
  const wanted = value.trim();
  const key = sql.ref(column);
  return sql<string | null>`(
    select ${key} from ${sql.table(table)}
    where upper(${key}) = ${wanted.toUpperCase()}
    order by case when ${key} = ${wanted} then 0 else 1 end, ${key}
    limit 1)`;
}

/** storedUserId within the statement that uses it (storedSpellingOf). */
export function storedUserIdOf(id: string): RawBuilder<string | null> {
  return storedSpellingOf('users', 'id', id);
}

/** storedCustomerCode within the statement that uses it (storedSpellingOf). */
export function storedCustomerCodeOf(code: string): RawBuilder<string | null> {
  return storedSpellingOf('customers', 'code', code);
}

/** A document number as typed, upper and lower case: `column in (<these>)` is served by the index, upper() is not. */
export function documentNumberSpellings(value: string): string[] {
  const v = value.trim();
  return [...new Set([v, v.toUpperCase(), v.toLowerCase()])];
}

/** The row stored under the first of `spellings` (documentNumberSpellings: the exact one first). */
export function preferredSpelling<R>(
  rows: readonly R[],
  spellings: readonly string[],
  key: (row: R) => string,
): R | undefined {
  return spellings.map((s) => rows.find((row) => key(row) === s)).find((row) => row !== undefined);
}

/** The categories whose upper-cased code lies in the range, in the byte order parse.ts `codeRange` checks. */
export async function categoriesInRange(db: Kysely<Database>, range: Range<string>): Promise<string[]> {
  const rows = await db.selectFrom('product_categories').select('code').execute();
  return rows
    .map((r) => r.code)
    .filter((code) => {
      const upper = code.toUpperCase();
      return (range.from === undefined || upper >= range.from) && (range.to === undefined || upper <= range.to);
    });
}

/** The states named in `states` and lying in one of `zones` (either list absent = no condition). */
export async function statesIn(
  db: Kysely<Database>,
  zones: string[] | undefined,
  states: string[] | undefined,
): Promise<string[]> {
  const rows = await db.selectFrom('states').select(['code', 'zone_code']).execute();
  return rows
    .filter(
      (s) =>
        (zones === undefined || zones.includes(s.zone_code.toUpperCase())) &&
        (states === undefined || states.includes(s.code.toUpperCase())),
    )
    .map((s) => s.code);
}
