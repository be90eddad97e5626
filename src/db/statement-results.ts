/**
 * The results of small reads, kept under the versions of the tables their SQL names
 * (docs/operations.md, "Statement results"): a SELECT outside a transaction, made by a read whose
 * answer the answer cache may keep, that reads what it read before from tables no one wrote since, is
 * answered here without asking the database. A report made of several queries then runs again only
 * those whose tables were written: after a warranty request the dashboard counts the open requests
 * again, not the year's sales.
 *
 * The versions are those the read took before it began (src/services/mobile-app.ts; table-versions.ts),
 * so rows are kept under the versions of the data they were read from or older, never newer: the
 * argument of the answer cache (src/services/answer-cache.ts). Only results of plain values and at most
 * MAX_ROWS rows are kept; each caller gets rows of its own (callers convert values in place).
 */
import { RawNode, SelectQueryNode, type CompiledQuery } from 'kysely';
import { dependencies, sqlWords, type TableVersions } from './table-versions';
import { VersionedLru, type CacheCounts, type Kept } from './versioned-lru';

type Row = Record<string, unknown>;

interface Entry extends Kept {
  rows: readonly Row[];
}

/** The largest result kept, in rows and in (estimated) bytes. */
const MAX_ROWS = 1000;
const MAX_ENTRY_BYTES = 256 * 1024;

/**
 * Whether a statement only reads: a SELECT built with Kysely, or raw SQL that is a plain SELECT (a raw
 * WITH may hide a write). The SQLite dialect sends these to its readers.
 */
export function isSelect(compiled: CompiledQuery): boolean {
  if (SelectQueryNode.is(compiled.query)) return true;
  return RawNode.is(compiled.query) && /^\s*select\b/i.test(compiled.sql);
}

export class StatementResults {
  private readonly kept: VersionedLru<Entry>;
  /** Its lookups and what it holds (bytes estimated). */
  readonly counts: CacheCounts;

  /** maxBytes: of all kept results together (estimated). */
  constructor(maxBytes: number) {
    this.kept = new VersionedLru(maxBytes);
    this.counts = this.kept;
  }

  /**
   * The statement's result: its kept rows, copied, while the tables it names keep the versions they
   * had; else read by `run` and kept under `versions`, read before.
   */
  async read(compiled: CompiledQuery, versions: TableVersions, run: () => Promise<Row[]>): Promise<Row[]> {
    const key = keyOf(compiled);
    if (key === undefined) return run();
    const entry = this.kept.get(key, versions);
    if (entry !== undefined) return entry.rows.map((row) => ({ ...row }));
    const rows = await run();
    this.keep(key, compiled.sql, versions, rows);
    return rows;
  }

  /** Keeps rows that are few and plain, read from versioned tables. */
  private keep(key: string, sql: string, versions: TableVersions, rows: readonly Row[]): void {
    if (rows.length > MAX_ROWS) return;
    const depends = dependencies(versions, sqlWords(sql));
    if (depends === undefined) return;
    const bytes = estimatedBytes(key, rows);
    if (bytes === undefined || bytes > MAX_ENTRY_BYTES) return;
    // Copies: the caller converts its own rows in place.
    this.kept.put(key, { depends, rows: rows.map((row) => ({ ...row })), bytes });
  }
}

/** The statement and its parameters, when they are all plain values. */
function keyOf(compiled: CompiledQuery): string | undefined {
  for (const value of compiled.parameters) if (!isPlain(value)) return undefined;
  return `${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
}

function isPlain(value: unknown): value is string | number | null {
  return typeof value === 'string' || value === null || (typeof value === 'number' && Number.isFinite(value));
}

/** Two bytes a character, sixteen a value and a row; undefined when a value is not plain. */
function estimatedBytes(key: string, rows: readonly Row[]): number | undefined {
  let bytes = 2 * key.length;
  for (const row of rows) {
    bytes += 16;
    for (const value of Object.values(row)) {
      if (!isPlain(value) && typeof value !== 'bigint' && typeof value !== 'boolean') return undefined;
      bytes += 16 + (typeof value === 'string' ? 2 * value.length : 0);
    }
  }
  return bytes;
}
