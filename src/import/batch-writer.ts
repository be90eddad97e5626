/**
 * Writes one batch of validated rows: stages them (staging.ts), drops the rows whose references or
 * unique values do not hold (each reported), then upserts the rest in one statement on the table's
 * key (docs/import.md, "Updates"). Columns the file leaves out are set on insert (their fallback) and
 * left alone on update; a stored row the file leaves as it is, is not written again (still counted as
 * updated).
 */
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Problem } from './header';
import { setAsideForInserts, restoreSetAside, type SetAside } from './foreign-keys';
import { keyOf, missingReferences } from './reference-check';
import { STAGING, clearStaging, createStaging, dropStaging, type StageRows } from './staging';
import type { PendingRow, TableSpec, UniqueSpec, WriteHooks } from './table-spec';
import { IMPORT_ANALYZE_FIRST_ROWS, IMPORT_DELETE_CHUNK_LINES } from '../tunables';

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
  private readonly updateColumns: string[];
  private readonly insertColumns: string[];
  private readonly comparedColumns: string[];
  /** How many rows had been inserted when the table's statistics were last refreshed; undefined before the first batch. */
  private analyzedAt: number | undefined;
  private staged = false;
  /** The table's foreign keys and plain indexes, once set aside for the rest of the file (foreign-keys.ts); tried at most once. */
  private setAside: SetAside | undefined | null = null;
  /** Whether the table held only this file's rows when the file set its keys aside (and so locked it). */
  private ownTable = false;
  /** The greatest key (keyOf) of the batches so far. */
  private greatestKey: string | undefined;

  constructor(
    private readonly trx: Transaction<Database>,
    private readonly stage: StageRows,
    private readonly spec: TableSpec,
    presentColumns: readonly string[],
    private readonly hooks: WriteHooks | undefined,
    private readonly reject: RejectSink,
  ) {
    const assigned = hooks?.assignedColumns ?? [];
    this.comparedColumns = presentColumns.filter((c) => !spec.key.includes(c));
    this.updateColumns = [...new Set([...this.comparedColumns, ...assigned])];
    this.insertColumns = [...new Set([...spec.columns.map((c) => c.name), ...assigned])];
  }

  /** Writes what it can of `rows`, whose keys (keyOf) are `keys`; returns the rows written. */
  async write(rows: PendingRow[], keys: Iterable<string>): Promise<PendingRow[]> {
    if (rows.length === 0) return [];
    if (!this.staged) await createStaging(this.trx, this.spec.table, this.insertColumns);
    this.staged = true;
    await clearStaging(this.trx);
    await this.stage(this.trx, this.insertColumns, rows);
    const assigns = this.hooks !== undefined && this.hooks.assignedColumns.length > 0;
    // Rows whose numbers a hook assigns are compared by the hook (warranty-requests.ts).
    const compared = assigns ? undefined : this.comparedColumns;
    // A row stored as the file gives it already had its references checked when stored, and the
    // database's foreign keys still hold them: a batch all unchanged (a re-import) is done.
    const trusted = this.spec.references.every((r) => !r.unenforced);
    const allNew = this.keysAfterEarlierBatches(keys);
    let found = allNew
      ? { stored: 0, unchanged: 0 }
      : trusted
        ? await storedRows(this.trx, this.spec, compared)
        : undefined;
    if (found?.unchanged === rows.length) {
      this.counts.updated += rows.length;
      return rows;
    }
    if (this.analyzedAt === undefined) {
      // Before the first reference check (none in a re-import): the tables the file refers to may have
      // been filled by the files before it, faster than the database's own statistics follow, and
      // the planner would take them for empty and scan them.
      await analyze(this.trx, [...new Set(this.spec.references.map((r) => r.table))]);
      this.analyzedAt = 0;
    }
    const byLine = new Map(rows.map((row) => [row.line, row]));
    const problems = await missingReferences(this.trx, this.spec.references, byLine);
    for (const unique of this.spec.unique ?? []) {
      const taken = await uniqueConflicts(
        this.trx,
        this.spec,
        unique,
        rows.filter((r) => !problems.has(r)),
      );
      for (const [row, problem] of taken) problems.set(row, [problem]);
    }
    for (const [row, list] of problems) this.rejectRow(row, list);
    await unstage(
      this.trx,
      [...problems.keys()].map((row) => row.line),
    );
    const accepted = problems.size === 0 ? rows : rows.filter((row) => !problems.has(row));
    if (accepted.length === 0) return [];
    // A stored row that the file leaves as it is need not be written, nor its summaries refreshed.
    if (found === undefined || (problems.size > 0 && !allNew)) found = await storedRows(this.trx, this.spec, compared);
    const { stored: updated, unchanged } = found;
    // Every accepted row as stored already: no second lookup of each to take them out one by one.
    if (unchanged === accepted.length) await clearStaging(this.trx);
    else if (unchanged > 0) await unstageUnchanged(this.trx, this.spec, this.comparedColumns);
    await this.hooks?.beforeWrite(this.trx, accepted, this.comparedColumns);
    if (assigns) {
      // The hook has given the rows their numbers: the staged copies must carry them.
      await clearStaging(this.trx);
      await this.stage(this.trx, this.insertColumns, accepted);
    }
    if (this.setAside === null && accepted.length - updated > 0) {
      this.setAside = await setAsideForInserts(this.trx, this.spec.table, accepted.length - updated);
      this.ownTable =
        this.setAside !== undefined && (await storedCount(this.trx, this.spec.table)) === this.counts.inserted;
    }
    await this.upsert(updated === 0 && Boolean(this.setAside));
    this.counts.updated += updated;
    this.counts.inserted += accepted.length - updated;
    // The same for the table the file fills, as its inserts grow fourfold (a bounded share of the
    // work); updates leave its statistics much as they were.
    const added = this.counts.inserted;
    if (added >= Math.max(IMPORT_ANALYZE_FIRST_ROWS, 4 * this.analyzedAt)) {
      await analyze(this.trx, [this.spec.table]);
      this.analyzedAt = added;
    }
    return accepted;
  }

  /**
   * Whether no key of the batch can be stored: the table has held only this file's rows since it was
   * locked, and every key of the batch comes after every key of the batches before it (files in key
   * order, as the export writes them), so none is one of theirs. Spares the lookup of each row.
   */
  private keysAfterEarlierBatches(keys: Iterable<string>): boolean {
    let least: string | undefined;
    let greatest: string | undefined;
    for (const key of keys) {
      if (least === undefined || key < least) least = key;
      if (greatest === undefined || key > greatest) greatest = key;
    }
    if (least === undefined || greatest === undefined) return false;
    const after = this.ownTable && this.greatestKey !== undefined && least > this.greatestKey;
    if (this.greatestKey === undefined || greatest > this.greatestKey) this.greatestKey = greatest;
    return after;
  }

  /** Drops the staging table, once the file's last batch is written. */
  async finish(): Promise<void> {
    if (this.setAside) await restoreSetAside(this.trx, this.setAside);
    this.setAside = null;
    if (this.staged) await dropStaging(this.trx);
    this.staged = false;
  }

  rejectRow(row: { line: number }, problems: Problem[]): void {
    this.counts.rejected++;
    for (const p of problems) this.reject(row.line, p.column, p.reason);
  }

  /**
   * One statement for the whole batch; a stored row whose columns all hold the file's values already is
   * left alone. Rows all new go in by a plain insert when the table is the file's alone (its keys set
   * aside, which locks it until the commit): no other writer can store one of their keys meanwhile,
   * so the upsert's conflict check of each row would find nothing.
   */
  private async upsert(allNew: boolean): Promise<void> {
    const columns = sql.join(this.insertColumns.map((c) => sql.ref(c)));
    const table = sql.table(this.spec.table);
    if (allNew) {
      await sql`insert into ${table} (${columns}) select ${columns} from ${sql.table(STAGING)}`.execute(this.trx);
      return;
    }
    const target = sql.join(this.spec.key.map((c) => sql.ref(c)));
    const update =
      this.updateColumns.length === 0
        ? sql`do nothing`
        : sql`do update set ${sql.join(this.updateColumns.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}
          where ${sql.join(
            this.updateColumns.map((c) => sql`${table}.${sql.ref(c)} is distinct from excluded.${sql.ref(c)}`),
            sql` or `,
          )}`;
    // "where true" tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
    await sql`insert into ${table} (${columns}) select ${columns} from ${sql.table(STAGING)} where true on conflict (${target}) ${update}`.execute(
      this.trx,
    );
  }
}

async function storedCount(trx: Transaction<Database>, table: string): Promise<number> {
  const found = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(trx);
  return Number(found.rows[0].n);
}

/** Takes the rejected lines out of the staging table. */
async function unstage(trx: Transaction<Database>, lines: number[]): Promise<void> {
  for (let i = 0; i < lines.length; i += IMPORT_DELETE_CHUNK_LINES) {
    await sql`delete from ${sql.table(STAGING)} where line in (${sql.join(lines.slice(i, i + IMPORT_DELETE_CHUNK_LINES))})`.execute(
      trx,
    );
  }
}

/** Takes out of the staging table the rows whose stored row holds their values already. */
async function unstageUnchanged(
  trx: Transaction<Database>,
  spec: TableSpec,
  compared: readonly string[],
): Promise<void> {
  // Scalar subqueries look each staged row up in the table's key: as a join, PostgreSQL hashed the
  // whole table for every batch.
  await sql`delete from ${sql.table(STAGING)} as s where (select 1 from ${sql.table(spec.table)} t where ${sql.join([keyMatch(spec), ...sameValues(compared)], sql` and `)}) is not null`.execute(
    trx,
  );
}

/**
 * How many staged rows have a key that is stored already (their write is an update), and of those
 * how many hold the stored values of `compared` already (none counted without `compared`).
 */
async function storedRows(
  trx: Transaction<Database>,
  spec: TableSpec,
  compared: readonly string[] | undefined,
): Promise<{ stored: number; unchanged: number }> {
  const same = compared === undefined ? sql`false` : sql.join([sql`true`, ...sameValues(compared)], sql` and `);
  // Grouped on k, which PostgreSQL then looks up once per row: two aggregates of k looked it up twice.
  const found = await sql<{ k: number | null; n: number | string }>`
    select k, count(*) as n from (select (select case when ${same} then 2 else 1 end from ${sql.table(spec.table)} t where ${keyMatch(spec)}) as k from ${sql.table(STAGING)} s) x group by k`.execute(
    trx,
  );
  const rows = (k: number) => Number(found.rows.find((r) => r.k === k)?.n ?? 0);
  return { stored: rows(1) + rows(2), unchanged: rows(2) };
}

const keyMatch = (spec: TableSpec) =>
  sql.join(
    spec.key.map((c) => sql`t.${sql.ref(c)} = s.${sql.ref(c)}`),
    sql` and `,
  );
const sameValues = (compared: readonly string[]) =>
  compared.map((c) => sql`t.${sql.ref(c)} is not distinct from s.${sql.ref(c)}`);

/**
 * Rows whose value of a unique column (users.username; warranty_requests.client_request_id within
 * the officer) belongs to another row: stored under another key, or given to another key earlier in
 * the batch.
 */
async function uniqueConflicts(
  trx: Transaction<Database>,
  spec: TableSpec,
  unique: UniqueSpec,
  rows: PendingRow[],
): Promise<Map<PendingRow, Problem>> {
  const { column, within } = unique;
  const conflicts = new Map<PendingRow, Problem>();
  const candidates = rows.filter((r) => r.values[column] !== null);
  if (candidates.length === 0) return conflicts;
  const db = trx as unknown as Dynamic;
  const scoped = within === undefined ? [] : [within];
  const stored = await db
    .selectFrom(spec.table)
    .select([...spec.key, ...scoped, column])
    .where(sql<SqlBool>`${sql.ref(column)} in (select ${sql.ref(column)} from ${sql.table(STAGING)})`)
    .execute();
  const valueOf = (r: Record<string, string | number | null>) => keyOf([...scoped.map((c) => r[c]), r[column]]);
  const owners = new Map(stored.map((r) => [valueOf(r), keyOf(spec.key.map((c) => r[c]))]));
  const inBatch = new Map<string, { key: string; line: number }>();
  for (const row of candidates) {
    const value = String(row.values[column]);
    const key = keyOf(spec.key.map((c) => row.values[c]));
    const owner = owners.get(valueOf(row.values));
    const earlier = inBatch.get(valueOf(row.values));
    if (owner !== undefined && owner !== key) {
      conflicts.set(row, {
        column,
        reason: `'${value}' already belongs to ${spec.table} ${owner.split('\u0000').join(', ')}`,
      });
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
