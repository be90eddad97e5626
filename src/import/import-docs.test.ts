/** docs/import.md is what users write their files from: it must list every file and column the import reads. */
import fs from 'node:fs';
import path from 'node:path';
import { TABLES_IN_LOAD_ORDER } from './tables';

const docs = fs.readFileSync(path.join(__dirname, '../../docs/import.md'), 'utf8');

/** The column names in the table under "### <file>" (up to the next heading). */
function documentedColumns(file: string): string[] {
  const start = docs.indexOf(`### ${file}\n`);
  if (start === -1) return [];
  const end = docs.indexOf('\n#', start + 1);
  const section = docs.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| ([a-z_]+) \|/gm)].map((m) => m[1]).filter((name) => name !== 'column');
}

describe('docs/import.md', () => {
  it.each(TABLES_IN_LOAD_ORDER.map((spec) => [spec.table, spec] as const))(
    'documents %s.csv with exactly its columns',
    (table, spec) => {
      expect(documentedColumns(`${table}.csv`)).toEqual(spec.columns.map((c) => c.name));
    },
  );

  it('lists the files in load order', () => {
    const listed = [...docs.matchAll(/^\s*\d+\. ([a-z_]+)\.csv$/gm)].map((m) => m[1]);
    expect(listed).toEqual(TABLES_IN_LOAD_ORDER.map((spec) => spec.table));
  });
});
