import type { Engine } from '../db/engine';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, STATES, insertMasterData } from '../../test/support/fixture';
import { expectInvalidParameter, runOperation, runReport } from '../../test/support/operation';
import { getSalesSummaryRecords } from './operations';
import { officersSeenBy, principal, seesOfficer } from '../users/test-fixture';
import { rebuildSummaries } from '../summaries/upkeep';

/**
 * Invoices of the test company. INV7 is raised by SO01 for C003, a customer SO02 owns: the
 * SalesOfficer filter follows the invoice, the row shows the customer's own officer.
 */
const INVOICES = [
  {
    invoice_no: 'INV1',
    invoice_date: '2026-03-01',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
  },
  {
    invoice_no: 'INV2',
    invoice_date: '2026-03-15',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC2',
  },
  {
    invoice_no: 'INV3',
    invoice_date: '2026-03-31',
    customer_code: 'C002',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
  },
  {
    invoice_no: 'INV4',
    invoice_date: '2026-04-01',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    profit_center_code: 'PC3',
  },
  {
    invoice_no: 'INV5',
    invoice_date: '2026-02-28',
    customer_code: 'C004',
    sales_officer_id: 'SO03',
    profit_center_code: 'PC2',
  },
  {
    invoice_no: 'INV6',
    invoice_date: '2026-03-10',
    customer_code: 'C005',
    sales_officer_id: 'SO03',
    profit_center_code: 'PC2',
  },
  {
    invoice_no: 'INV7',
    invoice_date: '2026-03-20',
    customer_code: 'C003',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC3',
  },
];

const LINES = [
  { invoice_no: 'INV1', line_no: 1, product_code: 'P002', category_code: 'CAT01', quantity: 2, value: 500000 },
  { invoice_no: 'INV1', line_no: 2, product_code: 'P003', category_code: 'CAT02', quantity: 1, value: 99900 },
  { invoice_no: 'INV2', line_no: 1, product_code: 'P004', category_code: 'CAT03', quantity: 10, value: 123450 },
  { invoice_no: 'INV3', line_no: 1, product_code: 'P002', category_code: 'CAT01', quantity: 1, value: 250000 },
  { invoice_no: 'INV4', line_no: 1, product_code: 'P003', category_code: 'CAT02', quantity: 3, value: 299700 },
  { invoice_no: 'INV4', line_no: 2, product_code: 'P004', category_code: 'CAT03', quantity: 4, value: 49380 },
  { invoice_no: 'INV5', line_no: 1, product_code: 'P003', category_code: 'CAT02', quantity: 5, value: 499500 },
  { invoice_no: 'INV6', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 1, value: 150000 },
  { invoice_no: 'INV7', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 2, value: 300001 },
];

type Invoice = (typeof INVOICES)[number];
type Line = (typeof LINES)[number];

/** The report worked out in plain JS from the rows above, for the lines `keep` accepts. */
function expected(keep: (invoice: Invoice, line: Line) => boolean) {
  const rows = new Map<
    string,
    {
      CustomerCode: string;
      CustomerName: string;
      StateCode: string;
      ZoneCode: string;
      SalesOfficer: string;
      invoices: Set<string>;
      Quantity: number;
      minor: number;
    }
  >();
  for (const line of LINES) {
    const invoice = INVOICES.find((i) => i.invoice_no === line.invoice_no)!;
    if (!keep(invoice, line)) continue;
    const customer = CUSTOMERS.find((c) => c.code === invoice.customer_code)!;
    const zone = STATES.find((s) => s.code === customer.state_code)!.zone_code;
    const row = rows.get(customer.code) ?? {
      CustomerCode: customer.code,
      CustomerName: customer.name,
      StateCode: customer.state_code,
      ZoneCode: zone,
      SalesOfficer: customer.sales_officer_id,
      invoices: new Set(),
      Quantity: 0,
      minor: 0,
    };
    row.invoices.add(invoice.invoice_no);
    row.Quantity += line.quantity;
    row.minor += line.value;
    rows.set(customer.code, row);
  }
  const data = [...rows.values()]
    .sort((a, b) => (a.CustomerCode < b.CustomerCode ? -1 : 1))
    .map(({ invoices, minor, ...r }) => ({ ...r, InvoiceCount: invoices.size, Value: minor / 100 }));
  const totals = {
    InvoiceCount: data.reduce((s, r) => s + r.InvoiceCount, 0),
    Quantity: data.reduce((s, r) => s + r.Quantity, 0),
    Value: Math.round(data.reduce((s, r) => s + r.Value * 100, 0)) / 100,
  };
  return { data, totals };
}

/** The master data, INVOICES with their LINES, and the summaries built from them. */
async function insertInvoices(engine: Engine): Promise<void> {
  await insertMasterData(engine.db);
  for (const invoice of INVOICES) {
    const amount = LINES.filter((l) => l.invoice_no === invoice.invoice_no).reduce((s, l) => s + l.value, 0);
    await engine.db
      .insertInto('invoices')
      .values({ ...invoice, order_no: null, amount })
      .execute();
  }
  await engine.db
    .insertInto('invoice_lines')
    .values(LINES.map((l) => ({ ...l, order_no: null, order_line_no: null })))
    .execute();
  await rebuildSummaries(engine.db);
}

const FIELDS = [
  'CustomerCode',
  'CustomerName',
  'StateCode',
  'ZoneCode',
  'SalesOfficer',
  'InvoiceCount',
  'Quantity',
  'Value',
] as const;

describe.each(ENGINES)('getSalesSummaryRecords: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertInvoices(engine),
  );

  const run = (fields: Record<string, string>) => runReport(getSalesSummaryRecords, engine, fields);

  it('with no fields lists every customer with invoiced lines, by customer code, totals the sum of the rows', async () => {
    const result = await run({});
    expect(result).toEqual(expected(() => true));
    const rows = result.data as { InvoiceCount: number; Quantity: number; Value: number }[];
    expect(rows.reduce((s, r) => s + r.InvoiceCount, 0)).toBe(result.totals!.InvoiceCount);
    expect(rows.reduce((s, r) => s + r.Quantity, 0)).toBe(result.totals!.Quantity);
    expect(Math.round(rows.reduce((s, r) => s + r.Value * 100, 0))).toBe(Math.round(result.totals!.Value * 100));
    // Worked by hand: 7 invoices, 29 units, 2271931 minor units.
    expect(result.totals).toEqual({ InvoiceCount: 7, Quantity: 29, Value: 22719.31 });
  });

  it('filters on the invoice officer, in any case, and shows the customer own officer', async () => {
    const result = await run({ SalesOfficer: 'so01' });
    expect(result).toEqual(expected((i) => i.sales_officer_id === 'SO01'));
    expect(
      (result.data as { CustomerCode: string; SalesOfficer: string }[]).find((r) => r.CustomerCode === 'C003')
        ?.SalesOfficer,
    ).toBe('SO02');
  });

  it('treats FromCustomer alone as exactly that customer and ranges as inclusive', async () => {
    expect(await run({ FromCustomer: 'c002' })).toEqual(expected((i) => i.customer_code === 'C002'));
    expect(await run({ FromCustomer: 'C002', ToCustomer: 'c003' })).toEqual(
      expected((i) => ['C002', 'C003'].includes(i.customer_code)),
    );
    expect(await run({ ToCustomer: 'C002' })).toEqual(expected((i) => ['C001', 'C002'].includes(i.customer_code)));
  });

  it('filters on the invoice profit center', async () => {
    expect(await run({ profitCenter: 'pc2' })).toEqual(expected((i) => i.profit_center_code === 'PC2'));
  });

  it('treats FromDate alone as that day and a date range as inclusive at both ends', async () => {
    expect(await run({ FromDate: '2026-03-01' })).toEqual(expected((i) => i.invoice_date === '2026-03-01'));
    expect(await run({ FromDate: '01/03/2026', ToDate: '31-Mar-2026' })).toEqual(
      expected((i) => i.invoice_date >= '2026-03-01' && i.invoice_date <= '2026-03-31'),
    );
    expect(await run({ ToDate: '2026-02-28' })).toEqual(expected((i) => i.invoice_date <= '2026-02-28'));
  });

  it('filters the lines on their category and counts only invoices with a matching line', async () => {
    const cat02 = await run({ FromPCat: 'cat02' });
    expect(cat02).toEqual(expected((_, l) => l.category_code === 'CAT02'));
    expect(
      (cat02.data as { CustomerCode: string; InvoiceCount: number }[]).find((r) => r.CustomerCode === 'C001')
        ?.InvoiceCount,
    ).toBe(1);
    expect(await run({ FromPCat: 'CAT01', ToPCat: 'CAT02' })).toEqual(expected((_, l) => l.category_code !== 'CAT03'));
  });

  it('filters on the customer state and zone lists', async () => {
    expect(await run({ Zones: ' s ' })).toEqual(expected((i) => ['C004', 'C005'].includes(i.customer_code)));
    expect(await run({ States: 'dl,PB,' })).toEqual(
      expected((i) => ['C001', 'C002', 'C003'].includes(i.customer_code)),
    );
    expect(await run({ Zones: 'N', States: 'DL,KA' })).toEqual(
      expected((i) => ['C001', 'C003'].includes(i.customer_code)),
    );
    expect(await run({ Zones: 'ALL' })).toEqual(expected(() => true));
  });

  it('combines filters', async () => {
    expect(
      await run({ SalesOfficer: 'SO01', FromDate: '2026-03-01', ToDate: '2026-03-20', FromPCat: 'CAT01' }),
    ).toEqual(
      expected(
        (i, l) =>
          i.sales_officer_id === 'SO01' &&
          i.invoice_date >= '2026-03-01' &&
          i.invoice_date <= '2026-03-20' &&
          l.category_code === 'CAT01',
      ),
    );
  });

  it('answers codes that name nothing with an empty report', async () => {
    const empty = { data: [], totals: { InvoiceCount: 0, Quantity: 0, Value: 0 } };
    expect(await run({ SalesOfficer: 'SO99' })).toEqual(empty);
    expect(await run({ FromCustomer: 'C999' })).toEqual(empty);
    expect(await run({ profitCenter: 'PC9' })).toEqual(empty);
    expect(await run({ FromPCat: 'CAT09' })).toEqual(empty);
    expect(await run({ States: 'XX' })).toEqual(empty);
  });

  it.each(
    FIELDS.flatMap((field) => [
      [field, 'ASC'],
      [field, 'desc'],
    ]),
  )('sorts by %s %s, ties by customer code', async (field, direction) => {
    const sign = direction === 'ASC' ? 1 : -1;
    const rows = expected(() => true).data;
    const compare = (a: (typeof rows)[number], b: (typeof rows)[number]) => {
      const x = a[field];
      const y = b[field];
      return x === y ? 0 : x < y ? -sign : sign;
    };
    const want = [...rows].sort((a, b) => compare(a, b) || (a.CustomerCode < b.CustomerCode ? -1 : 1));
    expect((await run({ SortBy: field.toLowerCase(), SortDirection: direction })).data).toEqual(want);
  });

  it.each([
    [{ FromDate: '31/02/2026' }, 'FromDate'],
    [{ ToDate: 'yesterday' }, 'ToDate'],
    [{ FromDate: '2026-04-01', ToDate: '2026-03-01' }, 'FromDate'],
    [{ FromCustomer: 'C003', ToCustomer: 'C001' }, 'FromCustomer'],
    [{ SortBy: 'Amount' }, 'SortBy'],
    [{ SortDirection: 'up' }, 'SortDirection'],
  ])('rejects %j as INVALID_PARAMETER naming %s', (fields, field) => expectInvalidParameter(run(fields), field));
});

describe.each(ENGINES)('getSalesSummaryRecords on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('succeeds with no rows and zero totals', async () => {
    const result = await runOperation(getSalesSummaryRecords, engine, {});
    expect(result).toEqual({ data: [], totals: { InvoiceCount: 0, Quantity: 0, Value: 0 } });
  });
});

describe.each(ENGINES)('getSalesSummaryRecords with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertInvoices(engine),
  );

  const runAs = (id: string, fields: Record<string, string> = {}) =>
    runReport(getSalesSummaryRecords, engine, fields, { principal: principal(id) });
  /** The invoice's customer is owned by an officer the user sees. */
  const ownedBy = (id: string) => (i: Invoice) =>
    seesOfficer(id, CUSTOMERS.find((c) => c.code === i.customer_code)!.sales_officer_id);

  it("shows a sales officer only their own customers' sales (INV7 of SO01 for SO02's C003 is SO02's)", async () => {
    expect(officersSeenBy('SO01')).toEqual(['SO01']);
    const result = await runAs('SO01');
    expect(result).toEqual(expected(ownedBy('SO01')));
    expect((result.data as { CustomerCode: string }[]).map((r) => r.CustomerCode)).toEqual(['C001', 'C002']);
    expect(await runAs('SO02')).toEqual(expected(ownedBy('SO02')));
  });

  it('shows an area manager their tree, a zonal manager theirs, the admin everything', async () => {
    expect(await runAs('AM01')).toEqual(expected(ownedBy('AM01')));
    expect(await runAs('ZM02')).toEqual(expected(ownedBy('ZM02')));
    expect(await runAs('ADM001')).toEqual(expected(() => true));
  });

  it('bounds the filters: a customer range and a zone never reach beyond the scope', async () => {
    expect(await runAs('AM01', { FromCustomer: 'C002', ToCustomer: 'C005' })).toEqual(
      expected((i) => ownedBy('AM01')(i) && i.customer_code >= 'C002' && i.customer_code <= 'C005'),
    );
    expect(await runAs('AM01', { Zones: 'S' })).toEqual({
      data: [],
      totals: { InvoiceCount: 0, Quantity: 0, Value: 0 },
    });
    expect(await runAs('SO01', { SalesOfficer: 'SO01' })).toEqual(
      expected((i) => ownedBy('SO01')(i) && i.sales_officer_id === 'SO01'),
    );
  });

  it('refuses an officer or a single customer outside the scope as FORBIDDEN naming the parameter', async () => {
    await expect(runAs('SO01', { SalesOfficer: 'so02' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'SalesOfficer',
    });
    await expect(runAs('AM01', { SalesOfficer: 'SO03' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'SalesOfficer',
    });
    await expect(runAs('SO01', { FromCustomer: 'c003' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'FromCustomer',
    });
    await expect(runAs('AM02', { FromCustomer: 'C001', ToCustomer: 'C001' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'FromCustomer',
    });
    expect(await runAs('AM01', { SalesOfficer: 'SO02' })).toEqual(
      expected((i) => ownedBy('AM01')(i) && i.sales_officer_id === 'SO02'),
    );
  });
});
