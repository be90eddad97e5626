/**
 * The staging table of the file being loaded: a batch of checked rows goes into it in one step, with
 * its file line, and from there the references are checked and the rows upserted by set-based
 * statements (batch-writer.ts). PostgreSQL fills it with COPY, SQLite with one statement over the
 * batch as JSON (on the worker thread, no statement per row). It is a temporary table of the file's
 * own transaction, made with the file's columns and types and dropped when the file is done.
 */
import { finished } from 'node:stream/promises';
import { sql, type Transaction } from 'kysely';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../db/schema';
import { isPostgres } from '../summaries/engine-sql';
import type { Value } from './column-types';
import type { PendingRow } from './table-spec';
import { IMPORT_COPY_CHUNK_ROWS } from '../tunables';

/** The staging table's name; every statement of the import that reads a batch names it. */
export const STAGING = 'import_rows';

/** Puts rows (their `line` and the values of `columns`) into the staging table. */
export type StageRows = (
  trx: Transaction<Database>,
  columns: readonly string[],
  rows: readonly PendingRow[],
) => Promise<void>;

/** The staging table with the types of `table`'s `columns` and a `line` column; no constraint, no index. */
export async function createStaging(
  trx: Transaction<Database>,
  table: string,
  columns: readonly string[],
): Promise<void> {
  await dropStaging(trx);
  await sql`create temporary table ${sql.table(STAGING)} as select 0 as line, ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)} where 1 = 0`.execute(
    trx,
  );
}

/**
 * Empties the staging table. PostgreSQL truncates it: a delete leaves every row behind as a dead
 * tuple, which each later statement of the file would read again (no vacuum runs inside the file's
 * transaction); SQLite's delete without a condition truncates already.
 */
export async function clearStaging(trx: Transaction<Database>): Promise<void> {
  if (isPostgres(trx)) await sql`truncate ${sql.table(STAGING)}`.execute(trx);
  else await sql`delete from ${sql.table(STAGING)}`.execute(trx);
}

export async function dropStaging(trx: Transaction<Database>): Promise<void> {
  await sql`drop table if exists ${sql.table(STAGING)}`.execute(trx);
}

/** SQLite: the batch as one JSON array of value arrays, taken apart by json_each in the database. */
export const stageAsJson: StageRows = async (trx, columns, rows) => {
  const names = ['line', ...columns];
  const json = JSON.stringify(rows.map((row) => [row.line, ...columns.map((c) => row.values[c] ?? null)]));
  const picks = names.map((_, i) => sql`json_extract(value, ${sql.lit(`$[${i}]`)})`);
  await sql`insert into ${sql.table(STAGING)} (${sql.join(names.map((c) => sql.ref(c)))}) select ${sql.join(picks)} from json_each(${json})`.execute(
    trx,
  );
};

/** PostgreSQL: COPY in text format on the transaction's own connection. */
export function stageByCopy(client: PoolClient): StageRows {
  return async (_trx, columns, rows) => {
    const copy = client.query(copyFrom(`copy ${STAGING} (line, ${columns.map(quoteName).join(', ')}) from stdin`));
    // The whole batch at once: pulled a chunk at a time, the COPY waited for the loader's turns
    // between chunks, and the batch's rows lived on meanwhile (a larger peak heap).
    for (const chunk of copyChunks(columns, rows)) copy.write(chunk);
    copy.end();
    await finished(copy);
  };
}

function* copyChunks(columns: readonly string[], rows: readonly PendingRow[]): Generator<string> {
  for (let start = 0; start < rows.length; start += IMPORT_COPY_CHUNK_ROWS) {
    let text = '';
    for (const row of rows.slice(start, start + IMPORT_COPY_CHUNK_ROWS)) {
      text += String(row.line);
      for (const c of columns) text += '\t' + copyField(row.values[c] ?? null);
      text += '\n';
    }
    yield text;
  }
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** COPY's text format: \N for null; backslash, tab and line breaks escaped. */
function copyField(value: Value): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]) : value;
}

/** Column names come from the table specs (lower-case identifiers); quoted all the same. */
function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
