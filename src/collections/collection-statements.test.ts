import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, insertMasterData } from '../../test/support/fixture';
import { runOperation } from '../../test/support/operation';
import { getCollectionStatements } from './operations';
import { principal, seesOfficer } from '../users/test-fixture';

// R001 and R002 share a date (the receipt number breaks the tie); R006 is C001's money collected by
// SO02, not by C001's own officer SO01, so the officer filter must read the receipt's officer.
const RECEIPTS: Database['receipts'][] = [
  {
    receipt_no: 'R001',
    receipt_date: '2026-01-05',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    payment_method: 'CHEQUE',
    reference: 'CHQ-1001',
    amount: 1250050,
  },
  {
    receipt_no: 'R002',
    receipt_date: '2026-01-05',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    payment_method: 'NEFT',
    reference: 'UTR-77',
    amount: 500000,
  },
  {
    receipt_no: 'R003',
    receipt_date: '2026-01-20',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    payment_method: 'UPI',
    reference: 'UPI-3',
    amount: 99,
  },
  {
    receipt_no: 'R004',
    receipt_date: '2026-02-01',
    customer_code: 'C002',
    sales_officer_id: 'SO01',
    payment_method: 'CASH',
    reference: '',
    amount: 2000000,
  },
  {
    receipt_no: 'R005',
    receipt_date: '2026-02-14',
    customer_code: 'C004',
    sales_officer_id: 'SO03',
    payment_method: 'RTGS',
    reference: 'RTGS-9',
    amount: 7500025,
  },
  {
    receipt_no: 'R006',
    receipt_date: '2026-02-28',
    customer_code: 'C001',
    sales_officer_id: 'SO02',
    payment_method: 'DD',
    reference: 'DD-5',
    amount: 300000,
  },
  {
    receipt_no: 'R007',
    receipt_date: '2026-03-01',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    payment_method: 'CHEQUE',
    reference: 'CHQ-2002',
    amount: 410010,
  },
];

type Row = ReturnType<typeof expectedRow>;

function expectedRow(r: Database['receipts']) {
  return {
    ReceiptNo: r.receipt_no,
    ReceiptDate: r.receipt_date,
    CustomerCode: r.customer_code,
    CustomerName: CUSTOMERS.find((c) => c.code === r.customer_code)!.name,
    PaymentMethod: r.payment_method,
    Reference: r.reference,
    Amount: r.amount / 100,
  };
}

/** Expected rows: the fixture filtered, sorted by a field then ReceiptNo (ascending). */
function expected(keep: (r: Database['receipts']) => boolean, by: keyof Row = 'ReceiptDate'): Row[] {
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  return RECEIPTS.filter(keep)
    .map(expectedRow)
    .sort((a, b) => cmp(a[by], b[by]) || cmp(a.ReceiptNo, b.ReceiptNo));
}

const nos = (data: unknown) => (data as Row[]).map((r) => r.ReceiptNo);

describe.each(ENGINES)('getCollectionStatements: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    async () => {
      await insertMasterData(engine.db);
      await engine.db.insertInto('receipts').values(RECEIPTS).execute();
    },
  );

  const run = (fields: Record<string, string> = {}) => runOperation(getCollectionStatements, engine, fields);

  it('lists every receipt by date, then receipt number, when called with nothing', async () => {
    const result = await run();
    expect(result.data).toEqual(expected(() => true));
    expect(nos(result.data)).toEqual(['R001', 'R002', 'R003', 'R004', 'R005', 'R006', 'R007']);
  });

  it('totals are the count and the sum of the rows', async () => {
    const cases: Record<string, string>[] = [
      {},
      { SalesOfficer: 'SO02' },
      { FromDate: '2026-02-01', ToDate: '2026-02-28' },
    ];
    for (const fields of cases) {
      const { data, totals } = await run(fields);
      const rows = data as Row[];
      const sum = Math.round(rows.reduce((s, r) => s + r.Amount * 100, 0)) / 100;
      expect(totals).toEqual({ Count: rows.length, Amount: sum });
    }
    // All seven, worked out by hand: 12500.50 + 5000 + 0.99 + 20000 + 75000.25 + 3000 + 4100.10
    expect((await run()).totals).toEqual({ Count: 7, Amount: 119601.84 });
  });

  it('filters by the receipt officer, any case', async () => {
    const { data } = await run({ SalesOfficer: 'so02' });
    expect(data).toEqual(expected((r) => r.sales_officer_id === 'SO02'));
    expect(nos(data)).toEqual(['R002', 'R006', 'R007']);
  });

  it('filters by exactly one customer, any case, returning the stored spelling', async () => {
    const { data } = await run({ FromCustomer: 'c001' });
    expect(data).toEqual(expected((r) => r.customer_code === 'C001'));
    expect((data as Row[]).every((r) => r.CustomerCode === 'C001')).toBe(true);
  });

  it('combines filters', async () => {
    const { data } = await run({
      SalesOfficer: 'SO01',
      FromCustomer: 'C001',
      FromDate: '01/01/2026',
      ToDate: '31/01/2026',
    });
    expect(nos(data)).toEqual(['R001', 'R003']);
  });

  it('finds nothing for an officer or customer that does not exist', async () => {
    expect(await run({ SalesOfficer: 'SO99' })).toEqual({ data: [], totals: { Count: 0, Amount: 0 } });
    expect(await run({ FromCustomer: 'C999' })).toEqual({ data: [], totals: { Count: 0, Amount: 0 } });
  });

  it('FromDate alone means exactly that day', async () => {
    const { data } = await run({ FromDate: '05/01/2026' });
    expect(data).toEqual(expected((r) => r.receipt_date === '2026-01-05'));
  });

  it('FromDate and ToDate are inclusive at both ends, in any accepted format', async () => {
    const { data } = await run({ FromDate: '2026-01-20', ToDate: '28-Feb-2026' });
    expect(data).toEqual(expected((r) => r.receipt_date >= '2026-01-20' && r.receipt_date <= '2026-02-28'));
    expect(nos(data)).toEqual(['R003', 'R004', 'R005', 'R006']);
  });

  it('ToDate alone means everything up to that day', async () => {
    const { data } = await run({ ToDate: '01.02.2026' });
    expect(nos(data)).toEqual(['R001', 'R002', 'R003', 'R004']);
  });

  it.each([
    'ReceiptNo',
    'ReceiptDate',
    'CustomerCode',
    'CustomerName',
    'PaymentMethod',
    'Reference',
    'Amount',
  ] as const)('sorts by %s in both directions, receipt number breaking ties', async (field) => {
    const ascending = expected(() => true, field);
    expect((await run({ SortBy: field.toLowerCase() })).data).toEqual(ascending);
    expect((await run({ SortBy: field, SortDirection: 'Ascending' })).data).toEqual(ascending);
    expect((await run({ SortBy: field.toUpperCase(), SortDirection: 'desc' })).data).toEqual([...ascending].reverse());
  });

  it('rejects an impossible date, naming the parameter', async () => {
    await expect(run({ FromDate: '31/02/2026' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'FromDate',
      message: expect.stringMatching(/^FromDate: '31\/02\/2026' is not a date/),
    });
    await expect(run({ ToDate: '2026-13-01' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'ToDate',
      message: expect.stringMatching(/^ToDate/),
    });
  });

  it('rejects FromDate after ToDate', async () => {
    await expect(run({ FromDate: '2026-03-01', ToDate: '2026-01-01' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'FromDate',
    });
  });

  it('rejects a SortBy that is not a result field, and a bad direction', async () => {
    await expect(run({ SortBy: 'receipt_no; drop table receipts' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'SortBy',
      message: expect.stringMatching(/^SortBy: .*ReceiptNo/),
    });
    await expect(run({ SortBy: 'Amount', SortDirection: 'sideways' })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'SortDirection',
      message: expect.stringMatching(/^SortDirection/),
    });
    expect(await engine.db.selectFrom('receipts').select('receipt_no').execute()).toHaveLength(RECEIPTS.length);
  });
});

describe.each(ENGINES)('getCollectionStatements on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('answers every call with no rows and zero totals', async () => {
    expect(await runOperation(getCollectionStatements, engine)).toEqual({ data: [], totals: { Count: 0, Amount: 0 } });
    expect(
      await runOperation(getCollectionStatements, engine, {
        SalesOfficer: 'SO01',
        FromCustomer: 'C001',
        FromDate: '2026-01-01',
      }),
    ).toEqual({ data: [], totals: { Count: 0, Amount: 0 } });
  });
});

describe.each(ENGINES)('getCollectionStatements with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    async () => {
      await insertMasterData(engine.db);
      await engine.db.insertInto('receipts').values(RECEIPTS).execute();
    },
  );

  const runAs = (id: string, fields: Record<string, string> = {}) =>
    runOperation(getCollectionStatements, engine, fields, { principal: principal(id) });
  /** The receipt's customer is owned by an officer the user sees. */
  const customerSeenBy = (id: string) => (r: Database['receipts']) =>
    seesOfficer(id, CUSTOMERS.find((c) => c.code === r.customer_code)!.sales_officer_id);
  const totalsOf = (rows: Row[]) => ({
    Count: rows.length,
    Amount: Math.round(rows.reduce((s, r) => s + r.Amount * 100, 0)) / 100,
  });

  it("shows an officer the receipts of their own customers (R006, collected by SO02 from SO01's C001, is SO01's)", async () => {
    const mine = await runAs('SO01');
    expect(mine.data).toEqual(expected(customerSeenBy('SO01')));
    expect(nos(mine.data)).toEqual(['R001', 'R003', 'R004', 'R006']);
    expect(mine.totals).toEqual(totalsOf(expected(customerSeenBy('SO01'))));
    expect(nos((await runAs('SO02')).data)).toEqual(['R002', 'R007']);
  });

  it('shows a manager their tree and the admin everything', async () => {
    expect((await runAs('AM02')).data).toEqual(expected(customerSeenBy('AM02')));
    const zm = await runAs('ZM01', { FromDate: '2026-01-01', ToDate: '2026-01-31', SortBy: 'Amount' });
    expect(zm.data).toEqual(expected((r) => customerSeenBy('ZM01')(r) && r.receipt_date <= '2026-01-31', 'Amount'));
    expect((await runAs('ADM001')).data).toEqual(expected(() => true));
  });

  it('narrows with a SalesOfficer or FromCustomer within the scope', async () => {
    expect((await runAs('SO01', { SalesOfficer: 'so01' })).data).toEqual(
      expected((r) => customerSeenBy('SO01')(r) && r.sales_officer_id === 'SO01'),
    );
    expect((await runAs('AM01', { FromCustomer: 'c003' })).data).toEqual(expected((r) => r.customer_code === 'C003'));
  });

  it('refuses a SalesOfficer or FromCustomer outside the scope as FORBIDDEN naming it', async () => {
    await expect(runAs('SO01', { SalesOfficer: 'SO02' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'SalesOfficer',
      message: expect.stringMatching(/^SalesOfficer: /),
    });
    await expect(runAs('SO02', { FromCustomer: 'C001' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'FromCustomer',
    });
    await expect(runAs('AM02', { FromCustomer: 'C002' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'FromCustomer',
    });
  });
});
