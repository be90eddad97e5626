/**
 * PostgreSQL checks a foreign key row by row, in a trigger per key and inserted row, after the import
 * has checked the same references for the whole batch (reference-check.ts). A file that inserts many
 * rows therefore drops its table's foreign keys for the length of its transaction and adds them back
 * at its end, when PostgreSQL checks each key again over the whole table in one statement: a key
 * broken by anything is still refused, and the file is rolled back (docs/import.md, "Speed").
 */
import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** Inserts in one batch from which a file drops its keys (when the table is not much larger, below). */
const MIN_INSERTS = 1000;

/** How long the file waits for the locks that dropping a key takes, before it keeps its keys instead. */
const LOCK_WAIT = '1s';

export interface DroppedKeys {
  table: string;
  keys: { name: string; definition: string }[];
}

/**
 * Drops `table`'s foreign keys inside the transaction, when a batch inserts `inserts` rows into a
 * table not ten times larger (the check at the end reads the whole table); undefined when it does not:
 * not PostgreSQL, too few rows, the locks are not to be had at once, or the user does not own the
 * table. Dropping a key locks its table and the table it refers to against reads too until the
 * commit: when a running server's reads (or an export) hold either, the file keeps its keys rather
 * than queue the server's next reads behind it.
 */
export async function dropForeignKeys(trx: Transaction<Database>, table: string, inserts: number): Promise<DroppedKeys | undefined> {
  if (inserts < MIN_INSERTS || !(trx.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  // The planner's estimate (-1 before the table was first analyzed, as a new one).
  const size = await sql<{ rows: number }>`select reltuples as rows from pg_class where oid = cast(${table} as regclass)`.execute(trx);
  if (Number(size.rows[0].rows) > 10 * inserts) return undefined;
  const found = await sql<{ name: string; definition: string }>`
    select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = cast(${table} as regclass) and contype = 'f' order by conname`.execute(trx);
  if (found.rows.length === 0) return undefined;
  await sql`savepoint import_foreign_keys`.execute(trx);
  try {
    await sql`set local lock_timeout = ${sql.lit(LOCK_WAIT)}`.execute(trx);
    await sql`alter table ${sql.table(table)} ${sql.join(found.rows.map((k) => sql`drop constraint ${sql.ref(k.name)}`))}`.execute(trx);
    await sql`set local lock_timeout = default`.execute(trx);
    await sql`release savepoint import_foreign_keys`.execute(trx);
    return { table, keys: found.rows };
  } catch (err) {
    // The keys stay, checked row by row: lock_not_available, deadlock_detected, or an import user
    // that does not own the table (insufficient_privilege).
    const code = (err as { code?: string }).code;
    await sql`rollback to savepoint import_foreign_keys`.execute(trx);
    if (code !== '55P03' && code !== '40P01' && code !== '42501') throw err;
    return undefined;
  }
}

/** Adds the keys back as they were; PostgreSQL checks every row of the table against each. */
export async function restoreForeignKeys(trx: Transaction<Database>, dropped: DroppedKeys): Promise<void> {
  const adds = dropped.keys.map((k) => sql`add constraint ${sql.ref(k.name)} ${sql.raw(k.definition)}`);
  await sql`alter table ${sql.table(dropped.table)} ${sql.join(adds)}`.execute(trx);
}
