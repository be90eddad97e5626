import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, insertMasterData } from '../../test/support/fixture';
import { fixedClock, runOperation } from '../../test/support/operation';
import { getOpeningBalance } from './operations';
import { principal, seesOfficer } from '../users/test-fixture';
import { rebuildSummaries } from '../summaries/upkeep';

// C001 owes money (Dr); C002 paid in advance (Cr); C003's invoice was cancelled by a credit note
// (zero: Dr); C004 has no entries at all; C005's only entry is after every month asked below except
// July. The 2026-02-01 entry sits on a month boundary: outside February's opening, inside March's.
const LEDGER: Database['ledger_entries'][] = [
  { customer_code: 'C001', entry_date: '2025-12-31', doc_type: 'OPENING', doc_no: 'OB-C001', debit: 100000, credit: 0 },
  { customer_code: 'C001', entry_date: '2026-01-10', doc_type: 'INVOICE', doc_no: 'INV001', debit: 500000, credit: 0 },
  { customer_code: 'C001', entry_date: '2026-01-31', doc_type: 'RECEIPT', doc_no: 'R001', debit: 0, credit: 200000 },
  { customer_code: 'C001', entry_date: '2026-02-01', doc_type: 'INVOICE', doc_no: 'INV002', debit: 99999, credit: 0 },
  { customer_code: 'C002', entry_date: '2026-01-15', doc_type: 'RECEIPT', doc_no: 'R002', debit: 0, credit: 300050 },
  { customer_code: 'C003', entry_date: '2026-01-02', doc_type: 'INVOICE', doc_no: 'INV003', debit: 100000, credit: 0 },
  {
    customer_code: 'C003',
    entry_date: '2026-01-20',
    doc_type: 'CREDIT_NOTE',
    doc_no: 'CN001',
    debit: 0,
    credit: 100000,
  },
  { customer_code: 'C005', entry_date: '2026-06-30', doc_type: 'DEBIT_NOTE', doc_no: 'DN001', debit: 4500, credit: 0 },
];

/** The expected rows, worked out from the fixture: balance of the entries before the month's first day. */
function expected(codes: string[], month: number, year: number) {
  const firstDay = `${year}-${String(month).padStart(2, '0')}-01`;
  return CUSTOMERS.filter((c) => codes.includes(c.code))
    .sort((a, b) => (a.code < b.code ? -1 : 1))
    .map((c) => {
      const balance = LEDGER.filter((e) => e.customer_code === c.code && e.entry_date < firstDay).reduce(
        (s, e) => s + e.debit - e.credit,
        0,
      );
      return {
        CustomerCode: c.code,
        CustomerName: c.name,
        Month: month,
        Year: year,
        OpeningBalance: Math.abs(balance) / 100,
        BalanceType: balance >= 0 ? 'Dr' : 'Cr',
      };
    });
}

/** The master data, the ledger and the balances summarised from it. */
async function insertLedger(engine: Engine): Promise<void> {
  await insertMasterData(engine.db);
  await engine.db.insertInto('ledger_entries').values(LEDGER).execute();
  await rebuildSummaries(engine.db);
}

const ALL_CODES = CUSTOMERS.map((c) => c.code);

describe.each(ENGINES)('getOpeningBalance: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertLedger(engine),
  );

  // The clock stands at 2026-06-15 unless a test says otherwise.
  const run = (fields: Record<string, string> = {}, now = '2026-06-15T10:00:00Z') =>
    runOperation(getOpeningBalance, engine, fields, { clock: fixedClock(now) });

  it('gives the balance before the first day of the month, for the listed customers, by code', async () => {
    const { data } = await run({ CustomerIds: ' c002, C001 ,,', Month: '2', Year: '2026' });
    expect(data).toEqual(expected(['C001', 'C002'], 2, 2026));
    // By hand: C001 1000.00 + 5000.00 - 2000.00 = 4000.00 Dr (the 2026-02-01 invoice is not before Feb 1);
    // C002 3000.50 Cr.
    expect(data).toEqual([
      {
        CustomerCode: 'C001',
        CustomerName: 'Agarwal Traders',
        Month: 2,
        Year: 2026,
        OpeningBalance: 4000,
        BalanceType: 'Dr',
      },
      {
        CustomerCode: 'C002',
        CustomerName: 'Bhatia Pumps',
        Month: 2,
        Year: 2026,
        OpeningBalance: 3000.5,
        BalanceType: 'Cr',
      },
    ]);
  });

  it('counts an entry on the first day of a month in the next month only', async () => {
    const { data } = await run({ CustomerIds: 'C001', Month: 'March', Year: '2026' });
    expect(data).toEqual(expected(['C001'], 3, 2026));
    expect((data as { OpeningBalance: number }[])[0].OpeningBalance).toBe(4999.99);
  });

  it('reports a zero balance as Dr, and a customer without entries as zero', async () => {
    const { data } = await run({ CustomerIds: 'C003,C004', Month: 'Feb', Year: '2026' });
    expect(data).toEqual(expected(['C003', 'C004'], 2, 2026));
    expect(
      (data as { BalanceType: string; OpeningBalance: number }[]).map((r) => [r.OpeningBalance, r.BalanceType]),
    ).toEqual([
      [0, 'Dr'],
      [0, 'Dr'],
    ]);
  });

  it('lists every customer when CustomerIds is empty, missing or ALL', async () => {
    const cases: Record<string, string>[] = [
      { CustomerIds: '' },
      {},
      { CustomerIds: 'all' },
      { CustomerIds: 'C001,ALL' },
    ];
    for (const fields of cases) {
      expect((await run({ ...fields, Month: '07', Year: '2026' })).data).toEqual(expected(ALL_CODES, 7, 2026));
    }
  });

  it('leaves out codes that name no customer', async () => {
    expect((await run({ CustomerIds: 'C999,c001', Month: '2', Year: '2026' })).data).toEqual(
      expected(['C001'], 2, 2026),
    );
    expect((await run({ CustomerIds: 'C999', Month: '2', Year: '2026' })).data).toEqual([]);
  });

  it("takes a missing Month and Year from the clock's current month", async () => {
    expect((await run()).data).toEqual(expected(ALL_CODES, 6, 2026));
    expect((await run({ CustomerIds: 'C001' }, '2026-02-10T23:59:00Z')).data).toEqual(expected(['C001'], 2, 2026));
    expect((await run({ Month: '1' }, '2026-02-10T00:00:00Z')).data).toEqual(expected(ALL_CODES, 1, 2026));
  });

  it('accepts every month spelling', async () => {
    for (const month of ['2', '02', 'feb', 'FEBRUARY']) {
      expect((await run({ CustomerIds: 'C001', Month: month, Year: '2026' })).data).toEqual(
        expected(['C001'], 2, 2026),
      );
    }
  });

  it('rejects a month or year it cannot read, naming the parameter', async () => {
    await expect(run({ Month: '13' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'Month',
      message: expect.stringMatching(/^Month: '13' is not a month/),
    });
    await expect(run({ Month: 'Febr' })).rejects.toMatchObject({ code: 'INVALID_PARAMETER', field: 'Month' });
    await expect(run({ Year: '26' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'Year',
      message: expect.stringMatching(/^Year: '26' is not a year/),
    });
  });
});

describe.each(ENGINES)('getOpeningBalance on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('answers with no rows', async () => {
    expect(await runOperation(getOpeningBalance, engine)).toEqual({ data: [] });
    expect(await runOperation(getOpeningBalance, engine, { CustomerIds: 'C001', Month: '1', Year: '2026' })).toEqual({
      data: [],
    });
  });
});

describe.each(ENGINES)('getOpeningBalance with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertLedger(engine),
  );

  const runAs = (id: string, fields: Record<string, string> = {}) =>
    runOperation(getOpeningBalance, engine, fields, { principal: principal(id) });
  /** The customers owned by officers the user sees. */
  const customersOf = (id: string) => CUSTOMERS.filter((c) => seesOfficer(id, c.sales_officer_id)).map((c) => c.code);

  it('gives an officer their own customers, a manager their tree, the admin every customer', async () => {
    expect(customersOf('SO01')).toEqual(['C001', 'C002']);
    expect((await runAs('SO01')).data).toEqual(expected(customersOf('SO01'), 6, 2026));
    expect((await runAs('AM02', { Month: '2', Year: '2026' })).data).toEqual(expected(customersOf('AM02'), 2, 2026));
    expect((await runAs('ZM01', { CustomerIds: 'ALL' })).data).toEqual(expected(customersOf('ZM01'), 6, 2026));
    expect((await runAs('ADM001')).data).toEqual(expected(ALL_CODES, 6, 2026));
  });

  it('answers the customers named within the scope, and leaves unknown codes out', async () => {
    expect((await runAs('AM01', { CustomerIds: 'c003,C001,C999', Month: '2', Year: '2026' })).data).toEqual(
      expected(['C001', 'C003'], 2, 2026),
    );
  });

  it('refuses CustomerIds naming a customer outside the scope as FORBIDDEN', async () => {
    await expect(runAs('SO01', { CustomerIds: 'C001,c003' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'CustomerIds',
      message: expect.stringMatching(/^CustomerIds: customer C003/),
    });
    await expect(runAs('AM02', { CustomerIds: 'C001' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'CustomerIds',
    });
  });
});
