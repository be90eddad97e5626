/**
 * Checks that the codes a batch of rows refers to exist: in the database, which inside the import's
 * transaction also holds every row loaded so far (earlier files, earlier batches). One statement per
 * reference and batch over the staging table (staging.ts), which answers only the rows whose code is
 * missing, in line order.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Problem } from './header';
import { STAGING } from './staging';
import type { PendingRow, ReferenceSpec } from './table-spec';

/** The rows of the batch (by line) with a reference that does not exist, and why, reference by reference. */
export async function missingReferences(trx: Transaction<Database>, references: readonly ReferenceSpec[], byLine: Map<number, PendingRow>): Promise<Map<PendingRow, Problem[]>> {
  const problems = new Map<PendingRow, Problem[]>();
  for (const reference of references) {
    for (const { line } of await missingRows(trx, reference)) {
      const row = byLine.get(Number(line))!;
      const list = problems.get(row) ?? [];
      list.push({ column: reference.columns.at(-1)!, reason: missingReason(reference, reference.columns.map((c) => row.values[c]!)) });
      problems.set(row, list);
    }
  }
  return problems;
}

/** The staged lines whose (non-null) reference names no row of the referenced table. Names come from the specs only. */
async function missingRows(trx: Transaction<Database>, reference: ReferenceSpec): Promise<{ line: number }[]> {
  const given = sql.join(reference.columns.map((c) => sql`s.${sql.ref(c)} is not null`), sql` and `);
  const match = sql.join(reference.columns.map((c, i) => sql`t.${sql.ref(reference.targets[i])} = s.${sql.ref(c)}`), sql` and `);
  // A scalar subquery, looked up in the referenced table's index row by row: as NOT EXISTS,
  // PostgreSQL hashed the whole referenced table for every batch.
  const found = await sql<{ line: number }>`
    select s.line from ${sql.table(STAGING)} s
    where ${given} and (select 1 from ${sql.table(reference.table)} t where ${match} limit 1) is null
    order by s.line`.execute(trx);
  return found.rows;
}

export function keyOf(tuple: readonly unknown[]): string {
  return tuple.map(String).join('\u0000');
}

function missingReason(reference: ReferenceSpec, tuple: readonly (string | number)[]): string {
  const what = reference.targets.length === 1
    ? `'${tuple[0]}' is not a ${reference.table}.${reference.targets[0]}`
    : `(${tuple.join(', ')}) is not a ${reference.table} (${reference.targets.join(', ')})`;
  return `${what} in the database or earlier in this import`;
}
