/**
 * The import at the demo data's full scale 1 (docs/import.md): the files exported from a seeded
 * database, imported into a fresh database of each engine in the batches of a real run, give the
 * summaries in step and the same report answers as the seeded database; imported again, every row is
 * an update and the answers stay the same.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { runOperation } from '../../test/support/operation';
import { seed } from '../demo-data';
import type { Engine } from '../db/engine';
import { mainServiceOperations } from '../services/registry';
import { checkSummaries } from '../summaries/check';
import { exportData } from './export';
import { findImportFiles } from './import-files';
import { runImport, type FileResult, type RejectLine } from './import-run';

const AS_OF = '2026-05-15';

const REPORTS: [string, Record<string, string>][] = [
  ['getSalesSummaryRecords', { FromDate: '2025-04-01', ToDate: AS_OF }],
  ['getOrderVDeliverySummaryRecords', { FromDate: '2025-04-01', ToDate: AS_OF }],
  ['getSalesReportStats', { AsOf: AS_OF }],
  ['getOpeningBalance', { Month: '1', Year: '2026' }],
];

let source: Engine;
let dir: string;

beforeAll(async () => {
  source = await freshEngine('sqlite');
  await seed(source, { scale: 1, asOf: AS_OF });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-scale-'));
  await exportData(source.db, dir);
}, 300_000);

afterAll(async () => {
  await source?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function importAll(engine: Engine): Promise<{ results: FileResult[]; rejects: RejectLine[] }> {
  const rejects: RejectLine[] = [];
  const results = await runImport(
    engine,
    findImportFiles(dir).files,
    { dryRun: false, dateOrder: 'DMY' },
    { reject: (r) => rejects.push(r), fileDone: () => undefined },
  );
  return { results, rejects };
}

async function expectSameAnswers(engine: Engine): Promise<void> {
  expect((await checkSummaries(engine.db)).inStep).toBe(true);
  for (const [name, fields] of REPORTS) {
    const operation = mainServiceOperations.find((op) => op.name === name)!;
    const [seeded, imported] = await Promise.all([
      runOperation(operation, source, fields),
      runOperation(operation, engine, fields),
    ]);
    expect({ name, answer: imported }).toEqual({ name, answer: seeded });
  }
}

describe.each(ENGINES)('scale-1 files imported into %s', (kind) => {
  let target: Engine;
  beforeAll(async () => {
    target = await freshEngine(kind);
  });
  afterAll(() => target?.close());

  it('inserts every row, keeps the summaries in step and answers the reports as the seeded database', async () => {
    const { results, rejects } = await importAll(target);
    expect(rejects).toEqual([]);
    expect(results.every((r) => r.status === 'loaded' && r.inserted === r.read && r.updated === 0)).toBe(true);
    await expectSameAnswers(target);
  }, 180_000);

  it('imported again, updates every row and answers the same', async () => {
    const { results, rejects } = await importAll(target);
    expect(rejects).toEqual([]);
    expect(results.every((r) => r.status === 'loaded' && r.updated === r.read && r.inserted === 0)).toBe(true);
    await expectSameAnswers(target);
  }, 180_000);
});
