/**
 * PostgreSQL checks a foreign key row by row, in a trigger per key and inserted row, after the import
 * has checked the same references for the whole batch (reference-check.ts), and adds every inserted
 * row to each index one at a time. A file that inserts many rows therefore sets its table's foreign
 * keys and plain (not unique) indexes aside for the length of its transaction and gives them back at
 * its end: PostgreSQL checks each key again over the whole table in one statement, and builds each
 * index in one sort. A key broken by anything is still refused, and the file is rolled back
 * (docs/import.md, "Speed"). The summary tables written anew for every customer set every key and
 * index aside the same way while they are written.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { isPostgres } from '../summaries/engine-sql';
import { IMPORT_SET_ASIDE_KEYS_ROWS } from '../tunables';

/** How long the file waits for the locks that dropping a key takes, before it keeps its keys instead. */
const LOCK_WAIT = '1s';

interface Definition {
  table: string;
  name: string;
  definition: string;
}

export interface SetAside {
  /** Constraints, added back by their definitions. */
  constraints: Definition[];
  /** Indexes that back no constraint, made again by their CREATE INDEX statements. */
  indexes: Definition[];
}

/** Which of a table's keys and indexes are set aside: those a load may go without, or every one (a table written whole). */
type Scope = 'foreign keys and plain indexes' | 'every key and index';

/**
 * Sets `table`'s foreign keys and plain indexes aside inside the transaction, when a batch inserts
 * `inserts` rows into a table not ten times larger (the check at the end reads the whole table);
 * undefined when it does not: not PostgreSQL, too few rows, the locks are not to be had at once, or
 * the user does not own the table. The unique ones stay: the upsert and the unique values need them.
 */
export async function setAsideForInserts(
  trx: Transaction<Database>,
  table: string,
  inserts: number,
): Promise<SetAside | undefined> {
  if (inserts < IMPORT_SET_ASIDE_KEYS_ROWS || !isPostgres(trx)) return undefined;
  // The planner's estimate (-1 before the table was first analyzed, as a new one).
  const size = await sql<{
    rows: number;
  }>`select reltuples as rows from pg_class where oid = cast(${table} as regclass)`.execute(trx);
  if (Number(size.rows[0].rows) > 10 * inserts) return undefined;
  return setAside(trx, [table], 'foreign keys and plain indexes');
}

/** Adds the keys back as they were, PostgreSQL checking every row of the table against each, and builds the indexes. */
export async function restoreSetAside(trx: Kysely<Database>, dropped: SetAside): Promise<void> {
  const tables = [...new Set(dropped.constraints.map((c) => c.table))];
  for (const table of tables) {
    const adds = dropped.constraints
      .filter((c) => c.table === table)
      .map((c) => sql`add constraint ${sql.ref(c.name)} ${sql.raw(c.definition)}`);
    await sql`alter table ${sql.table(table)} ${sql.join(adds)}`.execute(trx);
  }
  for (const index of dropped.indexes) await sql.raw(index.definition).execute(trx);
}

/**
 * Writes tables whole (every customer's summary rows, src/summaries/upkeep.ts) with their keys and
 * indexes set aside, built again at the end; on SQLite, or when the locks are not to be had at once,
 * with them in place.
 */
export async function withoutIndexes(
  trx: Kysely<Database>,
  tables: readonly string[],
  write: () => Promise<void>,
): Promise<void> {
  if (!isPostgres(trx)) return write();
  const dropped = tables.length > 0 ? await setAside(trx, tables, 'every key and index') : undefined;
  // Whole tables are joined: the planner, misjudging how many rows a join of two keys gives, looked
  // the rows of one up one by one in the other's index instead of hashing it.
  await sql`set local enable_nestloop = off`.execute(trx);
  await write();
  await sql`set local enable_nestloop = default`.execute(trx);
  if (dropped) await restoreSetAside(trx, dropped);
}

/**
 * Dropping a key or an index locks its table (and a key the table it refers to) against reads too
 * until the commit: when a running server's reads (or an export) hold one, the tables keep them
 * rather than queue the server's next reads behind the import.
 */
async function setAside(trx: Kysely<Database>, tables: readonly string[], scope: Scope): Promise<SetAside | undefined> {
  const oids = sql.join(tables.map((t) => sql`cast(${t} as regclass)`));
  const every = scope === 'every key and index';
  const kinds = sql.join((every ? ['f', 'p', 'u'] : ['f']).map((k) => sql.lit(k)));
  const constraints = await sql<Definition>`
    select t.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class t on t.oid = k.conrelid
    where k.conrelid in (${oids}) and k.contype in (${kinds}) order by t.relname, k.conname`.execute(trx);
  const indexes = await sql<Definition>`
    select t.relname as table, c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
    where i.indrelid in (${oids}) ${every ? sql`` : sql`and not i.indisunique`}
      and not exists (select 1 from pg_constraint k where k.conrelid = i.indrelid and k.conindid = i.indexrelid)
    order by t.relname, c.relname`.execute(trx);
  if (constraints.rows.length === 0 && indexes.rows.length === 0) return undefined;
  await sql`savepoint import_set_aside`.execute(trx);
  try {
    await sql`set local lock_timeout = ${sql.lit(LOCK_WAIT)}`.execute(trx);
    for (const table of tables) {
      const drops = constraints.rows
        .filter((c) => c.table === table)
        .map((c) => sql`drop constraint ${sql.ref(c.name)}`);
      if (drops.length > 0) await sql`alter table ${sql.table(table)} ${sql.join(drops)}`.execute(trx);
    }
    if (indexes.rows.length > 0)
      await sql`drop index ${sql.join(indexes.rows.map((i) => sql.ref(i.name)))}`.execute(trx);
    await sql`set local lock_timeout = default`.execute(trx);
    await sql`release savepoint import_set_aside`.execute(trx);
    return { constraints: constraints.rows, indexes: indexes.rows };
  } catch (err) {
    // The keys stay, checked row by row: lock_not_available, deadlock_detected, or an import user
    // that does not own the table (insufficient_privilege).
    const code = (err as { code?: string }).code;
    await sql`rollback to savepoint import_set_aside`.execute(trx);
    if (code !== '55P03' && code !== '40P01' && code !== '42501') throw err;
    return undefined;
  }
}
