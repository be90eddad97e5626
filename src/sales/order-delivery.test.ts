import type { Engine } from '../db/engine';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, STATES, USERS, insertMasterData } from '../../test/support/fixture';
import { expectInvalidParameter, runOperation, runReport } from '../../test/support/operation';
import { getOrderVDeliverySummaryRecords, getOrderVsDeliveryOfficer } from './operations';
import { officersSeenBy, principal, seesOfficer } from '../users/test-fixture';
import { rebuildSummaries } from '../summaries/upkeep';

/**
 * Orders and the invoices that deliver them. O6 is placed by SO02 for C001 (a customer of SO01):
 * the officer report attributes by the order. O7 is placed by SO05, an inactive officer. O5 is
 * CANCELLED and never counts. I3 over-delivers O2 (3 of 2). I6 delivers nothing ordered.
 */
const EXTRA_USERS = [
  {
    id: 'SO05',
    username: 'so.five',
    name: 'Suresh Five',
    role: 'SO' as const,
    manager_id: 'AM02',
    zone_code: 'S',
    active: 0,
  },
  {
    id: 'SO06',
    username: 'so.six',
    name: 'Shreya Six',
    role: 'SO' as const,
    manager_id: 'AM02',
    zone_code: 'S',
    active: 0,
  },
];

const ORDERS = [
  {
    order_no: 'O1',
    order_date: '2026-03-01',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    status: 'OPEN' as const,
  },
  {
    order_no: 'O2',
    order_date: '2026-03-10',
    customer_code: 'C002',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    status: 'CLOSED' as const,
  },
  {
    order_no: 'O3',
    order_date: '2026-03-20',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    profit_center_code: 'PC3',
    status: 'OPEN' as const,
  },
  {
    order_no: 'O4',
    order_date: '2026-04-05',
    customer_code: 'C004',
    sales_officer_id: 'SO03',
    profit_center_code: 'PC2',
    status: 'OPEN' as const,
  },
  {
    order_no: 'O5',
    order_date: '2026-03-05',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    status: 'CANCELLED' as const,
  },
  {
    order_no: 'O6',
    order_date: '2026-03-31',
    customer_code: 'C001',
    sales_officer_id: 'SO02',
    profit_center_code: 'PC2',
    status: 'OPEN' as const,
  },
  {
    order_no: 'O7',
    order_date: '2025-12-01',
    customer_code: 'C004',
    sales_officer_id: 'SO05',
    profit_center_code: 'PC2',
    status: 'OPEN' as const,
  },
];

const ORDER_LINES = [
  { order_no: 'O1', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 10, value: 1500000 },
  { order_no: 'O1', line_no: 2, product_code: 'P003', category_code: 'CAT02', quantity: 4, value: 399600 },
  { order_no: 'O2', line_no: 1, product_code: 'P002', category_code: 'CAT01', quantity: 2, value: 500000 },
  { order_no: 'O3', line_no: 1, product_code: 'P004', category_code: 'CAT03', quantity: 100, value: 1234500 },
  { order_no: 'O4', line_no: 1, product_code: 'P003', category_code: 'CAT02', quantity: 5, value: 499500 },
  { order_no: 'O5', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 3, value: 450000 },
  { order_no: 'O6', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 1, value: 150000 },
  { order_no: 'O7', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 3, value: 450000 },
];

const INVOICES = [
  {
    invoice_no: 'I1',
    invoice_date: '2026-03-05',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    order_no: 'O1',
  },
  {
    invoice_no: 'I2',
    invoice_date: '2026-04-10',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    order_no: 'O1',
  },
  {
    invoice_no: 'I3',
    invoice_date: '2026-03-12',
    customer_code: 'C002',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    order_no: 'O2',
  },
  {
    invoice_no: 'I4',
    invoice_date: '2026-03-31',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    profit_center_code: 'PC3',
    order_no: 'O3',
  },
  {
    invoice_no: 'I5',
    invoice_date: '2026-04-06',
    customer_code: 'C004',
    sales_officer_id: 'SO03',
    profit_center_code: 'PC2',
    order_no: 'O4',
  },
  {
    invoice_no: 'I6',
    invoice_date: '2026-03-06',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    order_no: null,
  },
  {
    invoice_no: 'I7',
    invoice_date: '2025-12-20',
    customer_code: 'C004',
    sales_officer_id: 'SO05',
    profit_center_code: 'PC2',
    order_no: 'O7',
  },
];

const INVOICE_LINES = [
  {
    invoice_no: 'I1',
    line_no: 1,
    product_code: 'P001',
    category_code: 'CAT01',
    quantity: 4,
    value: 600000,
    order_no: 'O1',
    order_line_no: 1,
  },
  {
    invoice_no: 'I1',
    line_no: 2,
    product_code: 'P003',
    category_code: 'CAT02',
    quantity: 4,
    value: 399600,
    order_no: 'O1',
    order_line_no: 2,
  },
  {
    invoice_no: 'I2',
    line_no: 1,
    product_code: 'P001',
    category_code: 'CAT01',
    quantity: 6,
    value: 900000,
    order_no: 'O1',
    order_line_no: 1,
  },
  {
    invoice_no: 'I3',
    line_no: 1,
    product_code: 'P002',
    category_code: 'CAT01',
    quantity: 3,
    value: 750000,
    order_no: 'O2',
    order_line_no: 1,
  },
  {
    invoice_no: 'I4',
    line_no: 1,
    product_code: 'P004',
    category_code: 'CAT03',
    quantity: 40,
    value: 493800,
    order_no: 'O3',
    order_line_no: 1,
  },
  {
    invoice_no: 'I5',
    line_no: 1,
    product_code: 'P003',
    category_code: 'CAT02',
    quantity: 5,
    value: 499500,
    order_no: 'O4',
    order_line_no: 1,
  },
  {
    invoice_no: 'I6',
    line_no: 1,
    product_code: 'P004',
    category_code: 'CAT03',
    quantity: 1,
    value: 12345,
    order_no: null,
    order_line_no: null,
  },
  {
    invoice_no: 'I7',
    line_no: 1,
    product_code: 'P001',
    category_code: 'CAT01',
    quantity: 1,
    value: 150000,
    order_no: 'O7',
    order_line_no: 1,
  },
];

type Order = (typeof ORDERS)[number];
type OrderLine = (typeof ORDER_LINES)[number];

interface Sums {
  oq: number;
  ov: number;
  dq: number;
  dv: number;
  pq: number;
  pv: number;
}

const zero = (): Sums => ({ oq: 0, ov: 0, dq: 0, dv: 0, pq: 0, pv: 0 });

/** The measures worked out in plain JS from the rows above: per group, for the lines `keep` accepts. */
function measure(
  keep: (o: Order, l: OrderLine) => boolean,
  upTo: string | undefined,
  groupOf: (o: Order) => string,
): Map<string, Sums> {
  const groups = new Map<string, Sums>();
  for (const line of ORDER_LINES) {
    const order = ORDERS.find((o) => o.order_no === line.order_no)!;
    if (order.status === 'CANCELLED' || !keep(order, line)) continue;
    const deliveries = INVOICE_LINES.filter(
      (il) => il.order_no === line.order_no && il.order_line_no === line.line_no,
    ).filter((il) => upTo === undefined || INVOICES.find((i) => i.invoice_no === il.invoice_no)!.invoice_date <= upTo);
    const dq = deliveries.reduce((s, d) => s + d.quantity, 0);
    const dv = deliveries.reduce((s, d) => s + d.value, 0);
    const g = groups.get(groupOf(order)) ?? zero();
    g.oq += line.quantity;
    g.ov += line.value;
    g.dq += dq;
    g.dv += dv;
    g.pq += Math.max(line.quantity - dq, 0);
    g.pv += Math.max(line.value - dv, 0);
    groups.set(groupOf(order), g);
  }
  return groups;
}

function measures(s: Sums) {
  return {
    OrderedQuantity: s.oq,
    OrderedValue: s.ov / 100,
    DeliveredQuantity: s.dq,
    DeliveredValue: s.dv / 100,
    PendingQuantity: s.pq,
    PendingValue: s.pv / 100,
    DeliveryPercent: s.ov === 0 ? 0 : Math.round((s.dv / s.ov) * 10000) / 100,
  };
}

function totalsOf(groups: Sums[]) {
  const t = zero();
  for (const g of groups) for (const k of Object.keys(t) as (keyof Sums)[]) t[k] += g[k];
  return measures(t);
}

function expectedPerCustomer(keep: (o: Order, l: OrderLine) => boolean, upTo?: string) {
  const groups = measure(keep, upTo, (o) => o.customer_code);
  const data = [...groups.keys()].sort().map((code) => {
    const c = CUSTOMERS.find((x) => x.code === code)!;
    return {
      CustomerCode: c.code,
      CustomerName: c.name,
      StateCode: c.state_code,
      ZoneCode: STATES.find((s) => s.code === c.state_code)!.zone_code,
      ...measures(groups.get(code)!),
    };
  });
  return { data, totals: totalsOf([...groups.values()]) };
}

const ALL_USERS = [...USERS, ...EXTRA_USERS];

function expectedPerOfficer(officerIds: string[], keep: (o: Order, l: OrderLine) => boolean, upTo?: string) {
  const groups = measure(keep, upTo, (o) => o.sales_officer_id);
  const listed = officerIds.filter((id) => ALL_USERS.find((u) => u.id === id)!.active === 1 || groups.has(id)).sort();
  const data = listed.map((id) => {
    const u = ALL_USERS.find((x) => x.id === id)!;
    return {
      SalesOfficer: u.id,
      SalesOfficerName: u.name,
      ManagerId: u.manager_id,
      ...measures(groups.get(id) ?? zero()),
    };
  });
  return { data, totals: totalsOf(listed.map((id) => groups.get(id) ?? zero())) };
}

const inMarch = (o: Order) => o.order_date >= '2026-03-01' && o.order_date <= '2026-03-31';

async function insertTransactions(engine: Engine): Promise<void> {
  const db = engine.db;
  await insertMasterData(db);
  await db.insertInto('users').values(EXTRA_USERS).execute();
  await db.insertInto('orders').values(ORDERS).execute();
  await db.insertInto('order_lines').values(ORDER_LINES).execute();
  for (const invoice of INVOICES) {
    const amount = INVOICE_LINES.filter((l) => l.invoice_no === invoice.invoice_no).reduce((s, l) => s + l.value, 0);
    await db
      .insertInto('invoices')
      .values({ ...invoice, amount })
      .execute();
  }
  await db.insertInto('invoice_lines').values(INVOICE_LINES).execute();
  // Rows written with plain SQL, as a manual fix would be: the summaries are rebuilt after it.
  await rebuildSummaries(db);
}

function sortedBy<R extends Record<string, unknown>>(rows: R[], field: string, direction: string, key: string): R[] {
  const sign = direction.toUpperCase().startsWith('ASC') ? 1 : -1;
  const cmp = (x: unknown, y: unknown) =>
    x === y ? 0 : x === null ? -1 : y === null ? 1 : (x as string) < (y as string) ? -1 : 1;
  return [...rows].sort((a, b) => sign * cmp(a[field], b[field]) || cmp(a[key], b[key]));
}

/** Totals must be the sums of the rows returned (money in cents to avoid float drift). */
function expectTotalsToSumRows(result: { data: unknown; totals?: Record<string, number> }) {
  const rows = result.data as Record<string, number>[];
  for (const field of [
    'OrderedQuantity',
    'OrderedValue',
    'DeliveredQuantity',
    'DeliveredValue',
    'PendingQuantity',
    'PendingValue',
  ]) {
    expect(Math.round(rows.reduce((s, r) => s + r[field] * 100, 0))).toBe(Math.round(result.totals![field] * 100));
  }
  const ordered = result.totals!.OrderedValue;
  expect(result.totals!.DeliveryPercent).toBe(
    ordered === 0 ? 0 : Math.round((result.totals!.DeliveredValue / ordered) * 10000) / 100,
  );
}

const MEASURE_FIELDS = [
  'OrderedQuantity',
  'OrderedValue',
  'DeliveredQuantity',
  'DeliveredValue',
  'PendingQuantity',
  'PendingValue',
  'DeliveryPercent',
];

describe.each(ENGINES)('getOrderVDeliverySummaryRecords: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertTransactions(engine),
  );

  const run = (fields: Record<string, string>) => runReport(getOrderVDeliverySummaryRecords, engine, fields);

  it('with no fields compares every order that is not cancelled with every delivery so far', async () => {
    const result = await run({});
    expect(result).toEqual(expectedPerCustomer(() => true));
    expectTotalsToSumRows(result);
    // Worked by hand for C001: O1 (10 + 4 ordered, all 14 delivered) and O6 (1 ordered, none delivered).
    expect(result.data).toContainEqual(
      expect.objectContaining({
        CustomerCode: 'C001',
        OrderedQuantity: 15,
        OrderedValue: 20496,
        DeliveredQuantity: 14,
        DeliveredValue: 18996,
        PendingQuantity: 1,
        PendingValue: 1500,
        DeliveryPercent: 92.68,
      }),
    );
  });

  it('counts deliveries up to ToDate only and never lets an over-delivered line go negative', async () => {
    const result = await run({ FromDate: '2026-03-01', ToDate: '2026-03-31' });
    expect(result).toEqual(expectedPerCustomer(inMarch, '2026-03-31'));
    // C002 ordered 2 and received 3: nothing pending, 150 % delivered.
    expect(result.data).toContainEqual(
      expect.objectContaining({ CustomerCode: 'C002', PendingQuantity: 0, PendingValue: 0, DeliveryPercent: 150 }),
    );
  });

  it('treats FromDate alone as the orders of that day, delivered up to that day', async () => {
    const result = await run({ FromDate: '01.03.2026' });
    expect(result).toEqual(expectedPerCustomer((o) => o.order_date === '2026-03-01', '2026-03-01'));
    expect(result.data).toEqual([
      expect.objectContaining({ CustomerCode: 'C001', DeliveredQuantity: 0, DeliveryPercent: 0 }),
    ]);
  });

  it('takes every order up to ToDate when only ToDate is given', async () => {
    expect(await run({ ToDate: '2026-03-20' })).toEqual(
      expectedPerCustomer((o) => o.order_date <= '2026-03-20', '2026-03-20'),
    );
  });

  it('filters on the order officer, customer range, profit center and line category', async () => {
    expect(await run({ SalesOfficer: 'so02' })).toEqual(expectedPerCustomer((o) => o.sales_officer_id === 'SO02'));
    expect(await run({ FromCustomer: 'c001' })).toEqual(expectedPerCustomer((o) => o.customer_code === 'C001'));
    expect(await run({ FromCustomer: 'C002', ToCustomer: 'C004' })).toEqual(
      expectedPerCustomer((o) => o.customer_code >= 'C002' && o.customer_code <= 'C004'),
    );
    expect(await run({ profitCenter: 'Pc2' })).toEqual(expectedPerCustomer((o) => o.profit_center_code === 'PC2'));
    expect(await run({ FromPCat: 'CAT01' })).toEqual(expectedPerCustomer((_, l) => l.category_code === 'CAT01'));
    expect(await run({ FromPCat: 'cat02', ToPCat: 'cat03' })).toEqual(
      expectedPerCustomer((_, l) => l.category_code !== 'CAT01'),
    );
  });

  it('filters on the customer zone and state', async () => {
    expect(await run({ Zones: 'S' })).toEqual(expectedPerCustomer((o) => o.customer_code === 'C004'));
    expect(await run({ States: 'DL' })).toEqual(expectedPerCustomer((o) => ['C001', 'C003'].includes(o.customer_code)));
    expect(await run({ Zones: 'S', States: 'DL' })).toEqual({ data: [], totals: totalsOf([]) });
  });

  it.each(
    ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', ...MEASURE_FIELDS].flatMap((f) => [
      [f, 'Ascending'],
      [f, 'DESC'],
    ]),
  )('sorts by %s %s', async (field, direction) => {
    const want = sortedBy(expectedPerCustomer(() => true).data, field, direction, 'CustomerCode');
    expect((await run({ SortBy: field.toUpperCase(), SortDirection: direction })).data).toEqual(want);
  });

  it.each([
    [{ ToDate: '31/02/2026' }, 'ToDate'],
    [{ SortBy: 'InvoiceCount' }, 'SortBy'],
    [{ FromPCat: 'CAT03', ToPCat: 'CAT01' }, 'FromPCat'],
  ])('rejects %j as INVALID_PARAMETER naming %s', (fields, field) => expectInvalidParameter(run(fields), field));
});

describe.each(ENGINES)('getOrderVsDeliveryOfficer: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertTransactions(engine),
  );

  const run = (fields: Record<string, string>) => runReport(getOrderVsDeliveryOfficer, engine, fields);
  const ALL_SO = ['SO01', 'SO02', 'SO03', 'SO04', 'SO05', 'SO06'];

  it('with no fields lists every active officer, and inactive ones with orders, attributed by the order', async () => {
    const result = await run({});
    expect(result).toEqual(expectedPerOfficer(ALL_SO, () => true));
    expectTotalsToSumRows(result);
    expect((result.data as { SalesOfficer: string }[]).map((r) => r.SalesOfficer)).toEqual([
      'SO01',
      'SO02',
      'SO03',
      'SO04',
      'SO05',
    ]);
    expect(result.data).toContainEqual(
      expect.objectContaining({ SalesOfficer: 'SO04', ManagerId: 'AM01', OrderedQuantity: 0, DeliveryPercent: 0 }),
    );
  });

  it('leaves out an inactive officer without orders in the period', async () => {
    const result = await run({ FromDate: '2026-03-01', ToDate: '2026-03-31' });
    expect(result).toEqual(expectedPerOfficer(ALL_SO, inMarch, '2026-03-31'));
    expect((result.data as { SalesOfficer: string }[]).map((r) => r.SalesOfficer)).toEqual([
      'SO01',
      'SO02',
      'SO03',
      'SO04',
    ]);
  });

  it('lists every officer below ManagerId at any depth', async () => {
    expect(await run({ ManagerId: 'am01' })).toEqual(expectedPerOfficer(['SO01', 'SO02', 'SO04'], () => true));
    expect(await run({ ManagerId: 'ZM02' })).toEqual(expectedPerOfficer(['SO03', 'SO05', 'SO06'], () => true));
    expect(await run({ ManagerId: 'ADM001' })).toEqual(expectedPerOfficer(ALL_SO, () => true));
  });

  it('shows one officer for SalesOfficer, and with ManagerId only when below that manager', async () => {
    expect(await run({ SalesOfficer: 'so03' })).toEqual(expectedPerOfficer(['SO03'], () => true));
    expect(await run({ ManagerId: 'AM01', SalesOfficer: 'SO02' })).toEqual(expectedPerOfficer(['SO02'], () => true));
    expect(await run({ ManagerId: 'AM01', SalesOfficer: 'SO03' })).toEqual({ data: [], totals: totalsOf([]) });
  });

  it('answers ids that name nobody, or no sales officer, with no rows', async () => {
    const empty = { data: [], totals: totalsOf([]) };
    expect(await run({ ManagerId: 'AM99' })).toEqual(empty);
    expect(await run({ SalesOfficer: 'SO99' })).toEqual(empty);
    expect(await run({ SalesOfficer: 'AM01' })).toEqual(empty);
    expect(await run({ ManagerId: 'SO01' })).toEqual(empty);
  });

  it('filters orders on the customer zone and state but keeps every officer in scope', async () => {
    const south = await run({ Zones: 's' });
    expect(south).toEqual(expectedPerOfficer(ALL_SO, (o) => o.customer_code === 'C004'));
    expect((south.data as { SalesOfficer: string }[]).map((r) => r.SalesOfficer)).toEqual([
      'SO01',
      'SO02',
      'SO03',
      'SO04',
      'SO05',
    ]);
    expect(await run({ States: 'PB,KA', ManagerId: 'AM01' })).toEqual(
      expectedPerOfficer(['SO01', 'SO02', 'SO04'], (o) => ['C002', 'C004'].includes(o.customer_code)),
    );
    expect(await run({ States: 'XX' })).toEqual(expectedPerOfficer(ALL_SO, () => false));
  });

  it.each(
    ['SalesOfficer', 'SalesOfficerName', 'ManagerId', ...MEASURE_FIELDS].flatMap((f) => [
      [f, 'asc'],
      [f, 'descending'],
    ]),
  )('sorts by %s %s', async (field, direction) => {
    const want = sortedBy(expectedPerOfficer(ALL_SO, () => true).data, field, direction, 'SalesOfficer');
    expect((await run({ SortBy: field.toLowerCase(), SortDirection: direction })).data).toEqual(want);
  });

  it.each([
    [{ FromDate: '2026-02-30' }, 'FromDate'],
    [{ SortBy: 'CustomerCode' }, 'SortBy'],
    [{ SortDirection: 'sideways' }, 'SortDirection'],
  ])('rejects %j as INVALID_PARAMETER naming %s', (fields, field) => expectInvalidParameter(run(fields), field));
});

describe.each(ENGINES)('order/delivery reports on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('succeed with no rows and zero totals', async () => {
    const zeros = { data: [], totals: totalsOf([]) };
    expect(await runOperation(getOrderVDeliverySummaryRecords, engine, {})).toEqual(zeros);
    expect(await runOperation(getOrderVsDeliveryOfficer, engine, {})).toEqual(zeros);
  });
});

describe.each(ENGINES)('order/delivery reports with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertTransactions(engine),
  );

  const runAs = (operation: typeof getOrderVsDeliveryOfficer, id: string, fields: Record<string, string> = {}) =>
    runReport(operation, engine, fields, { principal: principal(id, ALL_USERS) });
  /** The order's customer is owned by an officer the user sees. */
  const customerSeenBy = (id: string) => (o: Order) =>
    seesOfficer(id, CUSTOMERS.find((c) => c.code === o.customer_code)!.sales_officer_id, ALL_USERS);
  /** The sales officers (role SO) the user sees. */
  const salesOfficersSeenBy = (id: string) =>
    ALL_USERS.filter((u) => u.role === 'SO' && seesOfficer(id, u.id, ALL_USERS)).map((u) => u.id);

  describe('getOrderVDeliverySummaryRecords', () => {
    const run = (id: string, fields: Record<string, string> = {}) => runAs(getOrderVDeliverySummaryRecords, id, fields);

    it("shows an officer the orders of their own customers (O6, SO02's order for SO01's C001, is SO01's)", async () => {
      const result = await run('SO01');
      expect(result).toEqual(expectedPerCustomer(customerSeenBy('SO01')));
      expect((result.data as { CustomerCode: string }[]).map((r) => r.CustomerCode)).toEqual(['C001', 'C002']);
      expect(await run('SO02')).toEqual(expectedPerCustomer(customerSeenBy('SO02')));
    });

    it('shows a manager their tree and the admin everything', async () => {
      expect(await run('AM02')).toEqual(expectedPerCustomer(customerSeenBy('AM02')));
      expect(await run('ZM01', { FromDate: '2026-03-01', ToDate: '2026-03-31' })).toEqual(
        expectedPerCustomer((o) => customerSeenBy('ZM01')(o) && inMarch(o), '2026-03-31'),
      );
      expect(await run('ADM001')).toEqual(expectedPerCustomer(() => true));
    });

    it('refuses an officer or a single customer outside the scope, and bounds a customer range', async () => {
      await expect(run('SO02', { SalesOfficer: 'SO01' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        field: 'SalesOfficer',
      });
      await expect(run('SO02', { FromCustomer: 'C001' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        field: 'FromCustomer',
      });
      expect(await run('SO02', { FromCustomer: 'C001', ToCustomer: 'C004' })).toEqual(
        expectedPerCustomer(customerSeenBy('SO02')),
      );
    });
  });

  describe('getOrderVsDeliveryOfficer', () => {
    const run = (id: string, fields: Record<string, string> = {}) => runAs(getOrderVsDeliveryOfficer, id, fields);

    it('shows a sales officer only their own row, with all of their orders', async () => {
      expect(salesOfficersSeenBy('SO02')).toEqual(['SO02']);
      const result = await run('SO02');
      expect(result).toEqual(expectedPerOfficer(['SO02'], () => true));
      expect(result.data).toContainEqual(expect.objectContaining({ SalesOfficer: 'SO02', OrderedQuantity: 101 }));
    });

    it('shows a manager the officers of their tree and the admin every officer', async () => {
      expect(await run('AM01')).toEqual(expectedPerOfficer(salesOfficersSeenBy('AM01'), () => true));
      expect(await run('ZM02')).toEqual(expectedPerOfficer(salesOfficersSeenBy('ZM02'), () => true));
      expect(await run('ADM001')).toEqual(
        expectedPerOfficer(['SO01', 'SO02', 'SO03', 'SO04', 'SO05', 'SO06'], () => true),
      );
      expect(await run('ZM01', { ManagerId: 'AM01', SalesOfficer: 'SO04' })).toEqual(
        expectedPerOfficer(['SO04'], () => true),
      );
    });

    it('refuses a ManagerId or SalesOfficer outside the scope as FORBIDDEN naming it', async () => {
      await expect(run('AM01', { ManagerId: 'ZM01' })).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'ManagerId' });
      await expect(run('AM01', { ManagerId: 'AM02' })).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'ManagerId' });
      await expect(run('SO01', { SalesOfficer: 'SO02' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        field: 'SalesOfficer',
      });
      expect(officersSeenBy('AM01')).toContain('AM01');
      expect(await run('AM01', { ManagerId: 'am01' })).toEqual(
        expectedPerOfficer(salesOfficersSeenBy('AM01'), () => true),
      );
    });
  });
});
