/**
 * Writes one batch of validated rows: drops the rows whose references or unique values do not hold
 * (each reported), then upserts the rest in one statement on the table's key (docs/import.md,
 * "Updates"). Columns the file leaves out are set on insert (their fallback) and left alone on update.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Problem } from './header';
import { ReferenceCheck, keyOf } from './reference-check';
import type { PendingRow, TableSpec, UniqueSpec, WriteHooks } from './table-spec';
import { tupleIn } from './tuple-in';
import { IMPORT_ANALYZE_FIRST_ROWS } from '../tunables';

export type RejectSink = (line: number, column: string, reason: string) => void;

export interface WriteCounts {
  inserted: number;
  updated: number;
  rejected: number;
}

/** The database seen table by table from a spec's names (the specs' names are the only ones that reach SQL). */
export type Dynamic = Kysely<Record<string, Record<string, string | number | null>>>;

export class BatchWriter {
  readonly counts: WriteCounts = { inserted: 0, updated: 0, rejected: 0 };
  private readonly references: ReferenceCheck;
  private readonly updateColumns: string[];
  private readonly insertColumns: string[];
  private readonly comparedColumns: string[];
  /** How many rows had been written when the table's statistics were last refreshed; undefined before the first batch. */
  private analyzedAt: number | undefined;

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly spec: TableSpec,
    presentColumns: readonly string[],
    private readonly hooks: WriteHooks | undefined,
    private readonly reject: RejectSink,
  ) {
    this.references = new ReferenceCheck(spec.references);
    const assigned = hooks?.assignedColumns ?? [];
    this.comparedColumns = presentColumns.filter((c) => !spec.key.includes(c));
    this.updateColumns = [...new Set([...this.comparedColumns, ...assigned])];
    this.insertColumns = [...new Set([...spec.columns.map((c) => c.name), ...assigned])];
  }

  /** Writes what it can of `rows`; returns the rows written. */
  async write(rows: PendingRow[]): Promise<PendingRow[]> {
    if (rows.length === 0) return [];
    if (this.analyzedAt === undefined) {
      // The tables the file refers to may have been filled by the files before it, faster than the
      // database's own statistics follow: the planner would take them for empty and scan them.
      await analyze(this.trx, [...new Set(this.spec.references.map((r) => r.table))]);
      this.analyzedAt = 0;
    }
    const problems = await this.references.missing(this.trx, rows);
    for (const unique of this.spec.unique ?? []) {
      const taken = await uniqueConflicts(this.trx, this.spec, unique, rows.filter((r) => !problems.has(r)));
      for (const [row, problem] of taken) problems.set(row, [problem]);
    }
    const accepted = rows.filter((row) => !problems.has(row));
    for (const [row, list] of problems) this.rejectRow(row, list);
    if (accepted.length === 0) return [];
    await this.markExisting(accepted);
    await this.hooks?.beforeWrite(this.trx, accepted, this.comparedColumns);
    await this.upsert(accepted);
    const updated = accepted.filter((row) => row.exists).length;
    this.counts.updated += updated;
    this.counts.inserted += accepted.length - updated;
    // The same for the table the file fills, as it grows fourfold (a bounded share of the work).
    const written = this.counts.inserted + this.counts.updated;
    if (written >= Math.max(IMPORT_ANALYZE_FIRST_ROWS, 4 * this.analyzedAt)) {
      await analyze(this.trx, [this.spec.table]);
      this.analyzedAt = written;
    }
    return accepted;
  }

  rejectRow(row: { line: number }, problems: Problem[]): void {
    this.counts.rejected++;
    for (const p of problems) this.reject(row.line, p.column, p.reason);
  }

  private async markExisting(rows: PendingRow[]): Promise<void> {
    const stored = await existingKeys(this.trx, this.spec, rows);
    for (const row of rows) row.exists = stored.has(keyOf(this.spec.key.map((c) => row.values[c])));
  }

  private async upsert(rows: PendingRow[]): Promise<void> {
    const db = this.trx as unknown as Dynamic;
    const values = rows.map((row) => Object.fromEntries(this.insertColumns.map((c) => [c, row.values[c] ?? null])));
    await db.insertInto(this.spec.table).values(values)
      .onConflict((oc) => {
        const target = oc.columns(this.spec.key);
        if (this.updateColumns.length === 0) return target.doNothing();
        return target.doUpdateSet((eb) => Object.fromEntries(this.updateColumns.map((c) => [c, eb.ref(`excluded.${c}`)])));
      })
      .execute();
  }
}

/** The keys among `rows` that are already stored. */
async function existingKeys(trx: Transaction<Database>, spec: TableSpec, rows: PendingRow[]): Promise<Set<string>> {
  const db = trx as unknown as Dynamic;
  const found = await db.selectFrom(spec.table).select(spec.key)
    .where(tupleIn(spec.key, rows.map((r) => spec.key.map((c) => r.values[c])))).execute();
  return new Set(found.map((r) => keyOf(spec.key.map((c) => r[c]))));
}

/**
 * Rows whose value of a unique column (users.username; warranty_requests.client_request_id within
 * the officer) belongs to another row: stored under another key, or given to another key earlier in
 * the batch.
 */
async function uniqueConflicts(trx: Transaction<Database>, spec: TableSpec, unique: UniqueSpec, rows: PendingRow[]): Promise<Map<PendingRow, Problem>> {
  const { column, within } = unique;
  const conflicts = new Map<PendingRow, Problem>();
  const candidates = rows.filter((r) => r.values[column] !== null);
  if (candidates.length === 0) return conflicts;
  const db = trx as unknown as Dynamic;
  const scoped = within === undefined ? [] : [within];
  const stored = await db.selectFrom(spec.table).select([...spec.key, ...scoped, column])
    .where(column, 'in', candidates.map((r) => r.values[column]!)).execute();
  const valueOf = (r: Record<string, string | number | null>) => keyOf([...scoped.map((c) => r[c]), r[column]]);
  const owners = new Map(stored.map((r) => [valueOf(r), keyOf(spec.key.map((c) => r[c]))]));
  const inBatch = new Map<string, { key: string; line: number }>();
  for (const row of candidates) {
    const value = String(row.values[column]);
    const key = keyOf(spec.key.map((c) => row.values[c]));
    const owner = owners.get(valueOf(row.values));
    const earlier = inBatch.get(valueOf(row.values));
    if (owner !== undefined && owner !== key) {
      conflicts.set(row, { column, reason: `'${value}' already belongs to ${spec.table} ${owner.split('\u0000').join(', ')}` });
    } else if (earlier !== undefined && earlier.key !== key) {
      conflicts.set(row, { column, reason: `'${value}' is also given on line ${earlier.line}` });
    } else {
      inBatch.set(valueOf(row.values), { key, line: row.line });
    }
  }
  return conflicts;
}

/** Fresh planner statistics for `tables`, which this transaction may have filled (ANALYZE sees its rows). */
async function analyze(trx: Transaction<Database>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await sql`analyze ${sql.table(table)}`.execute(trx);
}
