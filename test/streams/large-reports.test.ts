/**
 * A report of many rows over HTTP GET (docs/behaviour.md, "Large answers"): its Data is written in
 * slices while the event loop stays free, byte for byte the answer the whole-envelope encoder gives
 * for the same report, and compressed only when asked.
 * 1,500 customers with sales (more than one slice), names with quotes, backslashes, non-ASCII and
 * characters JSON must escape. On both engines, through the real server on a real port.
 */
import zlib from 'node:zlib';
import type { Kysely } from 'kysely';
import { successEnvelope } from '../../src/asmx/http';
import { WHOLE_ANSWER_ROWS } from '../../src/tunables';
import type { EngineKind } from '../../src/db/engine';
import type { Database } from '../../src/db/schema';
import { getSalesSummaryRecords } from '../../src/sales/operations';
import { rebuildSummaries } from '../../src/summaries/upkeep';
import { ENGINES } from '../support/engines';
import { insertMasterData } from '../support/fixture';
import { MAIN_PATH } from '../support/interface-table';
import { runOperation } from '../support/operation';
import { getRaw, startStreamApp, type StreamApp } from './stream-support';

const CUSTOMERS = 1500;
// 'Emoji 🚀' and 'Emoji ｆ' sort one way by UTF-16 code units (the answer's order) and the other by
// code points (SQL's): the report must still answer in the former.
const NAMES = [
  'Agarwal "Big" Traders',
  'Back\\slash & Co',
  'Müller Ünal Pumps',
  'Tab\there\nnewline',
  'Pompes Électriques ☂',
  'Emoji 🚀 Motors',
  'Emoji ｆ Motors',
];

async function insertManyCustomers(db: Kysely<Database>): Promise<void> {
  await insertMasterData(db);
  const officers = ['SO01', 'SO02', 'SO03'];
  const states = ['DL', 'PB', 'KA', 'TN'];
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({
    code: `LC${String(i).padStart(5, '0')}`,
    name: `${NAMES[i % NAMES.length]} ${i}`,
    state_code: states[i % states.length],
    sales_officer_id: officers[i % officers.length],
    credit_limit: 1_000_000,
    active: 1,
  }));
  const invoices = customers.map((c, i) => ({
    invoice_no: `LI${String(i).padStart(6, '0')}`,
    invoice_date: `2026-0${1 + (i % 6)}-${String(1 + (i % 28)).padStart(2, '0')}`,
    customer_code: c.code,
    sales_officer_id: c.sales_officer_id,
    profit_center_code: ['PC1', 'PC2', 'PC3'][i % 3],
    order_no: null,
    amount: 10_001 + i * 37,
  }));
  const lines = invoices.map((inv) => ({
    invoice_no: inv.invoice_no,
    line_no: 1,
    product_code: 'P001',
    category_code: 'CAT01',
    quantity: 1 + (inv.amount % 7),
    value: inv.amount,
    order_no: null,
    order_line_no: null,
  }));
  for (let i = 0; i < CUSTOMERS; i += 250) {
    await db
      .insertInto('customers')
      .values(customers.slice(i, i + 250))
      .execute();
    await db
      .insertInto('invoices')
      .values(invoices.slice(i, i + 250))
      .execute();
    await db
      .insertInto('invoice_lines')
      .values(lines.slice(i, i + 250))
      .execute();
  }
  await rebuildSummaries(db);
}

const CASES = [
  [getSalesSummaryRecords, {}],
  [getSalesSummaryRecords, { SortBy: 'CustomerName', SortDirection: 'DESC' }],
  [getSalesSummaryRecords, { FromDate: '2026-01-15', ToDate: '2026-05-31', SortBy: 'Value' }],
] as const;

describe.each(ENGINES)('large reports: %s', (kind: EngineKind) => {
  let t: StreamApp;
  beforeAll(async () => {
    t = await startStreamApp(kind, (engine) => insertManyCustomers(engine.db), {});
  });
  afterAll(() => t.stop());

  it.each(CASES.map(([op, fields]) => [op.name, JSON.stringify(fields), op, fields] as const))(
    '%s %s: the sliced bytes are the whole envelope',
    async (_name, _label, op, fields) => {
      const result = await runOperation(op, t.engine, { ...fields });
      expect(Array.isArray(result.data) && result.data.length).toBeGreaterThan(WHOLE_ANSWER_ROWS);
      const res = await getRaw(t.port, `${MAIN_PATH}/${op.name}?${new URLSearchParams(fields).toString()}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.body.toString('utf8')).toBe(JSON.stringify(successEnvelope(result)));
    },
  );

  it.each(['asc', 'desc'])(
    'orders by CustomerName %s in UTF-16 code units, ties by CustomerCode, whatever order SQL gave',
    async (direction) => {
      const res = await getRaw(
        t.port,
        `${MAIN_PATH}/getSalesSummaryRecords?SortBy=CustomerName&SortDirection=${direction}`,
      );
      const rows: { CustomerName: string; CustomerCode: string }[] = JSON.parse(res.body.toString('utf8')).Data;
      const sign = direction === 'desc' ? -1 : 1;
      const expected = [...rows].sort(
        (a, b) =>
          sign * (a.CustomerName < b.CustomerName ? -1 : a.CustomerName > b.CustomerName ? 1 : 0) ||
          (a.CustomerCode < b.CustomerCode ? -1 : 1),
      );
      expect(rows.map((r) => r.CustomerCode)).toEqual(expected.map((r) => r.CustomerCode));
      const rocket = rows.findIndex((r) => r.CustomerName.startsWith('Emoji 🚀'));
      const fullwidth = rows.findIndex((r) => r.CustomerName.startsWith('Emoji ｆ'));
      expect(direction === 'asc' ? rocket < fullwidth : rocket > fullwidth).toBe(true);
    },
  );

  it('compresses a sliced answer only when Accept-Encoding asks, the same bytes once inflated', async () => {
    const path = `${MAIN_PATH}/getSalesSummaryRecords`;
    const identity = await getRaw(t.port, path);
    expect(identity.headers['content-encoding']).toBeUndefined();
    const gzip = await getRaw(t.port, path, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).equals(identity.body)).toBe(true);
  });

  it('sends a kept answer in the gzip or br form kept beside it, made once in the background: declared length, Vary, the same bytes once inflated', async () => {
    const path = `${MAIN_PATH}/getSalesSummaryRecords?SortBy=Value&SortDirection=DESC`;
    const identity = await getRaw(t.port, path); // read, and kept (docs/operations.md, "Answer cache")
    expect(identity.headers['content-encoding']).toBeUndefined();
    const inflate = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync };
    for (const coding of ['gzip', 'br'] as const) {
      // The first asks for the form: compressed as it is sent (chunked, no declared length), and once more in the background.
      const first = await getRaw(t.port, path, { 'Accept-Encoding': coding });
      expect(first.headers['content-encoding']).toBe(coding);
      expect(first.headers['content-length']).toBeUndefined();
      expect(inflate[coding](first.body).equals(identity.body)).toBe(true);
      let kept = first;
      for (let tries = 0; kept.headers['content-length'] === undefined && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        kept = await getRaw(t.port, path, { 'Accept-Encoding': `${coding}, identity;q=0.5` });
      }
      expect(kept.headers['content-encoding']).toBe(coding);
      expect(kept.headers['content-length']).toBe(String(kept.body.length));
      expect(kept.headers.vary).toBe('Accept-Encoding');
      expect(inflate[coding](kept.body).equals(identity.body)).toBe(true);
    }
    // Both kept, the request's preference still decides; refusing both, or not asking, gets the answer as it is.
    expect((await getRaw(t.port, path, { 'Accept-Encoding': 'gzip;q=1, br;q=0.5' })).headers['content-encoding']).toBe(
      'gzip',
    );
    expect((await getRaw(t.port, path, { 'Accept-Encoding': 'gzip, br' })).headers['content-encoding']).toBe('br');
    for (const headers of [{ 'Accept-Encoding': 'gzip;q=0, br;q=0' }, {}]) {
      const plain = await getRaw(t.port, path, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(identity.body)).toBe(true);
    }
  });
});
