/**
 * Export and import round trip (docs/import.md, "Export"): demo data exported from one engine and
 * imported into a fresh database of the other (SQLite both ways round without PostgreSQL) gives the same
 * rows in every table the files cover, summaries in step, and the same report answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { runOperation } from '../../test/support/operation';
import { seed } from '../demo-data';
import type { Engine, EngineKind } from '../db/engine';
import { mainServiceOperations } from '../services/registry';
import { checkSummaries } from '../summaries/check';
import { exportData } from './export';
import { findImportFiles } from './import-files';
import { runImport, type RejectLine } from './import-run';
import { TABLES_IN_LOAD_ORDER } from './tables';

const AS_OF = '2026-05-15';
const PAIRS: [EngineKind, EngineKind][] = ENGINES.length > 1 ? [['sqlite', 'postgres'], ['postgres', 'sqlite']] : [['sqlite', 'sqlite']];

/**
 * Report calls whose answers must not change across the round trip. Not SyncWarrantyReqList: the files
 * carry no warranty files (FileCount) and the import numbers the sync order anew (docs/import.md).
 */
const REPORTS: [string, Record<string, string>][] = [
  ['getSalesSummaryRecords', {}],
  ['getOrderVDeliverySummaryRecords', { FromDate: '2025-04-01', ToDate: AS_OF }],
  ['getSalesReportStats', { AsOf: AS_OF }],
  ['getCollectionStatements', { FromDate: '2026-04-01', ToDate: AS_OF }],
  ['getOpeningBalance', {}],
  ['getPCNList', {}],
  ['FillAreaManagers', {}],
];

async function tableRows(engine: Engine, table: (typeof TABLES_IN_LOAD_ORDER)[number]): Promise<unknown[]> {
  const columns = table.columns.map((column) => column.name);
  const db = engine.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
  return table.key.reduce((query, key) => query.orderBy(key), db.selectFrom(table.table).select(columns)).execute();
}

describe.each(PAIRS)('exported from %s, imported into %s', (from, to) => {
  let source: Engine;
  let target: Engine;
  const rejects: RejectLine[] = [];

  beforeAll(async () => {
    [source, target] = await Promise.all([freshEngine(from), freshEngine(to)]);
    await seed(source, { scale: 0.03, asOf: AS_OF });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
    const written = await exportData(source.db, dir);
    expect(written.map((file) => file.file)).toEqual(TABLES_IN_LOAD_ORDER.map((table) => `${table.table}.csv`));
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const results = await runImport(target, findImportFiles(dir).files, { dryRun: false, dateOrder: 'DMY' }, { reject: (r) => rejects.push(r), fileDone: () => undefined });
    expect(results.every((result) => result.status === 'loaded')).toBe(true);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('rejects nothing and gives every table the same rows', async () => {
    expect(rejects).toEqual([]);
    for (const table of TABLES_IN_LOAD_ORDER) {
      const [a, b] = await Promise.all([tableRows(source, table), tableRows(target, table)]);
      expect({ table: table.table, rows: b }).toEqual({ table: table.table, rows: a });
    }
  });

  it('keeps the summaries in step and the report answers the same', async () => {
    expect((await checkSummaries(target.db)).inStep).toBe(true);
    for (const [name, fields] of REPORTS) {
      const operation = mainServiceOperations.find((op) => op.name === name)!;
      const [a, b] = await Promise.all([runOperation(operation, source, fields), runOperation(operation, target, fields)]);
      expect({ name, answer: b }).toEqual({ name, answer: a });
    }
  });
});
