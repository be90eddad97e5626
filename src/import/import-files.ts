/**
 * Which files of an export directory are loaded, and in what order: those named after a table
 * (zones.csv, ..., any case), parents first (tables/index.ts). Other .csv files are listed as ignored.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TableSpec } from './table-spec';
import { TABLES_IN_LOAD_ORDER } from './tables';

export const REJECTS_FILE = 'import-rejects.csv';

export interface ImportFile {
  spec: TableSpec;
  /** The file name as found in the directory. */
  name: string;
  path: string;
}

export function findImportFiles(dir: string): { files: ImportFile[]; ignored: string[] } {
  const names = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  const byLowerName = new Map<string, string>();
  for (const name of names) if (!byLowerName.has(name.toLowerCase())) byLowerName.set(name.toLowerCase(), name);
  const files: ImportFile[] = [];
  for (const spec of TABLES_IN_LOAD_ORDER) {
    const name = byLowerName.get(`${spec.table}.csv`);
    if (name !== undefined) files.push({ spec, name, path: path.join(dir, name) });
  }
  const used = new Set(files.map((f) => f.name));
  const ignored = names.filter(
    (n) => n.toLowerCase().endsWith('.csv') && !used.has(n) && n.toLowerCase() !== REJECTS_FILE,
  );
  return { files, ignored };
}
