/**
 * Checks that the codes a batch of rows refers to exist: in the database, which inside the import's
 * transaction also holds every row loaded so far (earlier files, earlier batches). One statement per
 * reference and batch over the staging table (staging.ts), which answers only the rows whose code is
 * missing, in line order.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { isPostgres } from '../summaries/engine-sql';
import type { Problem } from './header';
import { STAGING } from './staging';
import type { PendingRow, ReferenceSpec } from './table-spec';

/** The rows of the batch (by line) with a reference that does not exist, and why, reference by reference. */
export async function missingReferences(
  trx: Transaction<Database>,
  references: readonly ReferenceSpec[],
  byLine: Map<number, PendingRow>,
): Promise<Map<PendingRow, Problem[]>> {
  const problems = new Map<PendingRow, Problem[]>();
  const small = await smallTables(trx, references);
  for (const reference of references) {
    for (const { line } of await missingRows(trx, reference, small.has(reference.table))) {
      const row = byLine.get(Number(line))!;
      const list = problems.get(row) ?? [];
      list.push({
        column: reference.columns.at(-1)!,
        reason: missingReason(
          reference,
          reference.columns.map((c) => row.values[c]!),
        ),
      });
      problems.set(row, list);
    }
  }
  return problems;
}

/**
 * Referenced tables of at most this many rows (PostgreSQL's estimate) are read whole once per
 * statement: hashing a table of a few times a batch's rows costs less than a lookup per staged row.
 */
const SMALL_TABLE_ROWS = 50_000;

/** PostgreSQL: the referenced tables that are small (codes, products, officers, tens of thousands of customers); none on SQLite, whose lookups are cheap. */
async function smallTables(trx: Transaction<Database>, references: readonly ReferenceSpec[]): Promise<Set<string>> {
  if (references.length === 0 || !isPostgres(trx)) return new Set();
  const tables = [...new Set(references.map((r) => r.table))];
  const found = await sql<{ name: string }>`
    select relname as name from pg_class where oid in (${sql.join(tables.map((t) => sql`cast(${t} as regclass)`))})
    and reltuples between 0 and ${SMALL_TABLE_ROWS}`.execute(trx);
  return new Set(found.rows.map((r) => r.name));
}

/** The staged lines whose (non-null) reference names no row of the referenced table. Names come from the specs only. */
async function missingRows(
  trx: Transaction<Database>,
  reference: ReferenceSpec,
  small: boolean,
): Promise<{ line: number }[]> {
  const given = sql.join(
    reference.columns.map((c) => sql`s.${sql.ref(c)} is not null`),
    sql` and `,
  );
  const match = sql.join(
    reference.columns.map((c, i) => sql`t.${sql.ref(reference.targets[i])} = s.${sql.ref(c)}`),
    sql` and `,
  );
  const target = sql.ref(`t.${reference.targets[0]}`);
  // A small table is hashed once (NOT IN over a subquery); a large one looked up in its index row by
  // row (a scalar subquery): as NOT EXISTS, PostgreSQL hashed the whole table for every batch.
  const absent =
    small && reference.columns.length === 1
      ? sql`s.${sql.ref(reference.columns[0])} not in (select ${target} from ${sql.table(reference.table)} t where ${target} is not null)`
      : sql`(select 1 from ${sql.table(reference.table)} t where ${match} limit 1) is null`;
  const found = await sql<{ line: number }>`
    select s.line from ${sql.table(STAGING)} s where ${given} and ${absent} order by s.line`.execute(trx);
  return found.rows;
}

export function keyOf(tuple: readonly unknown[]): string {
  return tuple.map(String).join('\u0000');
}

function missingReason(reference: ReferenceSpec, tuple: readonly (string | number)[]): string {
  const what =
    reference.targets.length === 1
      ? `'${tuple[0]}' is not a ${reference.table}.${reference.targets[0]}`
      : `(${tuple.join(', ')}) is not a ${reference.table} (${reference.targets.join(', ')})`;
  return `${what} in the database or earlier in this import`;
}
