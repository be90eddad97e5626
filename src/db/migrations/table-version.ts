/**
 * A table's version bookkeeping (migration 0005; docs/operations.md, "Answer cache"), the same for
 * every table on each engine: its row in table_versions and the triggers that change it in the
 * transaction of every write. A migration that creates a table calls addTableVersion for it.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: applied migrations ran this code, so changing what it writes would give new databases another schema; write a new helper instead.

/** The table's version row and its triggers. On PostgreSQL, after 0005 created bump_table_version. */
export async function addTableVersion(db: Kysely<unknown>, table: string): Promise<void> {
  const token = isPostgres(db) ? sql`gen_random_uuid()::text` : sql`random()`;
  await sql`insert into table_versions (table_name, version) values (${table}, ${token})`.execute(db);
  await addVersionTriggers(db, table);
}

/** The triggers alone, for a table rebuilt under its name (0007), whose version row stays. */
export async function addVersionTriggers(db: Kysely<unknown>, table: string): Promise<void> {
  if (isPostgres(db)) {
    // One statement trigger; the table's version row stays locked until the writer commits.
    await sql`create trigger ${sql.id(`${table}_version`)} after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_table_version()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete'] as const) {
    await sql`create trigger ${sql.id(`${table}_version_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin update table_versions set version = random() where table_name = ${sql.lit(table)}; end`.execute(db);
  }
}

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
