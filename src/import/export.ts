/**
 * The database written out as the import reads it (docs/import.md, "Export"): one CSV file per table
 * of the import, its columns, amounts in units, dates as yyyy-MM-dd, from one read-only snapshot
 * (the server may go on writing meanwhile), streamed a batch at a time so memory does not grow with
 * the data. Files are written under a temporary name and renamed once the whole snapshot is out.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Dynamic } from './batch-writer';
import { escapeText, type ColumnType } from './column-types';
import type { TableSpec } from './table-spec';
import { TABLES_IN_LOAD_ORDER } from './tables';
import { EXPORT_BATCH_ROWS } from '../tunables';

export interface ExportedFile {
  file: string;
  rows: number;
}

/** Exports every table of the import into `dir`; `progress` hears of each file once written. */
export async function exportData(
  db: Kysely<Database>,
  dir: string,
  progress: (file: ExportedFile) => void = () => undefined,
): Promise<ExportedFile[]> {
  fs.mkdirSync(dir, { recursive: true });
  const trx = await db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
  const written: ExportedFile[] = [];
  try {
    for (const spec of TABLES_IN_LOAD_ORDER) {
      const file = {
        file: `${spec.table}.csv`,
        rows: await exportTable(trx as unknown as Dynamic, spec, path.join(dir, `${spec.table}.csv.partial`)),
      };
      written.push(file);
      progress(file);
    }
  } finally {
    await trx.rollback().execute();
  }
  for (const { file } of written) fs.renameSync(path.join(dir, `${file}.partial`), path.join(dir, file));
  return written;
}

async function exportTable(db: Dynamic, spec: TableSpec, file: string): Promise<number> {
  const columns = spec.columns.map((column) => column.name);
  const types = spec.columns.map((column) => column.type);
  const out = fs.createWriteStream(file);
  let rows = 0;
  try {
    await write(out, `${columns.join(',')}\r\n`);
    const query = spec.key.reduce((ordered, key) => ordered.orderBy(key), db.selectFrom(spec.table).select(columns));
    for await (const part of db
      .getExecutor()
      .stream<Record<string, string | number | null>>(query.compile(), EXPORT_BATCH_ROWS)) {
      let text = '';
      for (const row of part.rows) text += `${columns.map((name, i) => field(types[i], row[name])).join(',')}\r\n`;
      rows += part.rows.length;
      await write(out, text);
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return rows;
}

async function write(out: fs.WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * One value as the import reads it back: an empty field for no value, a text a spreadsheet would run
 * as a formula escaped, RFC 4180 quoting where needed.
 */
export function field(type: ColumnType, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text =
    type.kind === 'money' ? units(Number(value)) : type.kind === 'text' ? escapeText(String(value)) : String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Integer minor units as units with two decimals, without a floating-point step: -12075 -> -120.75. */
function units(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const whole = Math.abs(minor);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}
