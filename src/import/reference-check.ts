/**
 * Checks that the codes a batch of rows refers to exist: in the database, which inside the import's
 * transaction also holds every row loaded so far (earlier files, earlier batches). One query per
 * reference and batch; codes already seen are remembered (a bounded set) so that, e.g., the few
 * products of a million invoice lines are not looked up again and again.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Problem } from './header';
import type { PendingRow, ReferenceSpec } from './table-spec';
import { tupleIn } from './tuple-in';

const REMEMBERED_CODES = 100_000;

export class ReferenceCheck {
  private readonly known = new Map<ReferenceSpec, Set<string>>();

  constructor(private readonly references: readonly ReferenceSpec[]) {}

  /** The rows with a reference that does not exist, and why. */
  async missing(trx: Transaction<Database>, rows: PendingRow[]): Promise<Map<PendingRow, Problem[]>> {
    const problems = new Map<PendingRow, Problem[]>();
    for (const reference of this.references) {
      const found = await this.lookUp(trx, reference, rows);
      for (const row of rows) {
        const tuple = tupleOf(row, reference);
        if (tuple === undefined || found.has(keyOf(tuple))) continue;
        const list = problems.get(row) ?? [];
        list.push({ column: reference.columns.at(-1)!, reason: missingReason(reference, tuple) });
        problems.set(row, list);
      }
    }
    return problems;
  }

  private async lookUp(trx: Transaction<Database>, reference: ReferenceSpec, rows: PendingRow[]): Promise<Set<string>> {
    const known = this.known.get(reference) ?? new Set<string>();
    if (known.size > REMEMBERED_CODES) known.clear();
    this.known.set(reference, known);
    const wanted = new Map<string, Tuple>();
    for (const row of rows) {
      const tuple = tupleOf(row, reference);
      if (tuple !== undefined && !known.has(keyOf(tuple))) wanted.set(keyOf(tuple), tuple);
    }
    if (wanted.size > 0) {
      for (const tuple of await existing(trx, reference, [...wanted.values()])) known.add(keyOf(tuple));
    }
    return known;
  }
}

type Tuple = (string | number)[];

/** The referenced values of a row; undefined when a column is null (a null reference refers to nothing). */
function tupleOf(row: PendingRow, reference: ReferenceSpec): Tuple | undefined {
  const tuple = reference.columns.map((c) => row.values[c]);
  return tuple.some((v) => v === null) ? undefined : (tuple as Tuple);
}

export function keyOf(tuple: readonly unknown[]): string {
  return tuple.map(String).join('\u0000');
}

/** Which of the tuples exist in the referenced table. Table and column names come from the specs only. */
async function existing(trx: Transaction<Database>, reference: ReferenceSpec, tuples: Tuple[]): Promise<Tuple[]> {
  const db = trx as unknown as Kysely<Record<string, Record<string, string | number>>>;
  const rows = await db.selectFrom(reference.table).select(reference.targets).where(tupleIn(reference.targets, tuples)).execute();
  return rows.map((r) => reference.targets.map((c) => r[c]));
}

function missingReason(reference: ReferenceSpec, tuple: Tuple): string {
  const what = reference.targets.length === 1
    ? `'${tuple[0]}' is not a ${reference.table}.${reference.targets[0]}`
    : `(${tuple.join(', ')}) is not a ${reference.table} (${reference.targets.join(', ')})`;
  return `${what} in the database or earlier in this import`;
}
