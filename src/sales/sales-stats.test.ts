import type { Engine } from '../db/engine';
import { AppError } from '../errors';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, USERS, insertMasterData } from '../../test/support/fixture';
import { expectInvalidParameter, fixedClock, runOperation } from '../../test/support/operation';
import { getSalesReportStats } from './operations';
import { officersSeenBy, principal, refusalShape } from '../users/test-fixture';
import { rebuildSummaries } from '../summaries/upkeep';

/**
 * The test clock stands at 2026-06-15 (test/support/operation.ts); the fiscal year starts in April.
 * C006 belongs to the area manager AM01 himself, so that Role = SO for him has something to show.
 */
const C006 = {
  code: 'C006',
  name: 'Farooq Motors',
  state_code: 'DL',
  sales_officer_id: 'AM01',
  credit_limit: 0,
  active: 1,
};
const ALL_CUSTOMERS = [...CUSTOMERS, C006];

const INVOICES = [
  { invoice_no: 'I1', invoice_date: '2026-06-01', customer_code: 'C001', amount: 100000, order_no: 'O1' },
  { invoice_no: 'I2', invoice_date: '2026-06-15', customer_code: 'C001', amount: 200000, order_no: null },
  { invoice_no: 'I3', invoice_date: '2026-06-16', customer_code: 'C001', amount: 400000, order_no: null },
  { invoice_no: 'I4', invoice_date: '2026-05-10', customer_code: 'C002', amount: 50000, order_no: null },
  { invoice_no: 'I5', invoice_date: '2026-04-01', customer_code: 'C003', amount: 70000, order_no: null },
  { invoice_no: 'I6', invoice_date: '2026-03-31', customer_code: 'C003', amount: 999900, order_no: null },
  { invoice_no: 'I7', invoice_date: '2026-06-10', customer_code: 'C004', amount: 30000, order_no: 'O5' },
  { invoice_no: 'I8', invoice_date: '2026-06-16', customer_code: 'C003', amount: 20000, order_no: 'O2' },
  { invoice_no: 'I9', invoice_date: '2026-01-15', customer_code: 'C006', amount: 80000, order_no: null },
  { invoice_no: 'I10', invoice_date: '2026-06-03', customer_code: 'C006', amount: 15000, order_no: null },
];

/** Only the invoice lines that deliver orders matter here (pending orders). */
const INVOICE_LINES = [
  {
    invoice_no: 'I1',
    line_no: 1,
    product_code: 'P001',
    category_code: 'CAT01',
    quantity: 10,
    value: 100000,
    order_no: 'O1',
    order_line_no: 1,
  },
  {
    invoice_no: 'I7',
    line_no: 1,
    product_code: 'P003',
    category_code: 'CAT02',
    quantity: 3,
    value: 30000,
    order_no: 'O5',
    order_line_no: 1,
  },
  {
    invoice_no: 'I8',
    line_no: 1,
    product_code: 'P004',
    category_code: 'CAT03',
    quantity: 2,
    value: 20000,
    order_no: 'O2',
    order_line_no: 1,
  },
];

const ORDERS = [
  { order_no: 'O1', order_date: '2026-06-01', customer_code: 'C001', status: 'OPEN' as const },
  { order_no: 'O2', order_date: '2026-05-01', customer_code: 'C003', status: 'OPEN' as const },
  { order_no: 'O3', order_date: '2026-06-20', customer_code: 'C004', status: 'OPEN' as const },
  { order_no: 'O4', order_date: '2026-05-01', customer_code: 'C002', status: 'CLOSED' as const },
  { order_no: 'O5', order_date: '2026-05-05', customer_code: 'C004', status: 'OPEN' as const },
  { order_no: 'O6', order_date: '2026-06-02', customer_code: 'C006', status: 'OPEN' as const },
];

const ORDER_LINES = [
  { order_no: 'O1', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 10, value: 100000 },
  { order_no: 'O1', line_no: 2, product_code: 'P003', category_code: 'CAT02', quantity: 5, value: 50000 },
  { order_no: 'O2', line_no: 1, product_code: 'P004', category_code: 'CAT03', quantity: 2, value: 20000 },
  { order_no: 'O3', line_no: 1, product_code: 'P003', category_code: 'CAT02', quantity: 1, value: 9990 },
  { order_no: 'O4', line_no: 1, product_code: 'P001', category_code: 'CAT01', quantity: 7, value: 70000 },
  { order_no: 'O5', line_no: 1, product_code: 'P003', category_code: 'CAT02', quantity: 3, value: 30000 },
  { order_no: 'O6', line_no: 1, product_code: 'P002', category_code: 'CAT01', quantity: 4, value: 44000 },
];

const RECEIPTS = [
  { receipt_no: 'R1', receipt_date: '2026-06-02', customer_code: 'C001', amount: 5000 },
  { receipt_no: 'R2', receipt_date: '2026-05-31', customer_code: 'C001', amount: 7000 },
  { receipt_no: 'R3', receipt_date: '2026-06-15', customer_code: 'C004', amount: 3000 },
  { receipt_no: 'R4', receipt_date: '2026-06-16', customer_code: 'C003', amount: 9999 },
  { receipt_no: 'R5', receipt_date: '2026-06-01', customer_code: 'C006', amount: 1000 },
];

const LEDGER = [
  {
    customer_code: 'C001',
    entry_date: '2026-06-01',
    doc_type: 'INVOICE' as const,
    doc_no: 'I1',
    debit: 100000,
    credit: 0,
  },
  {
    customer_code: 'C001',
    entry_date: '2026-06-02',
    doc_type: 'RECEIPT' as const,
    doc_no: 'R1',
    debit: 0,
    credit: 5000,
  },
  {
    customer_code: 'C001',
    entry_date: '2026-06-16',
    doc_type: 'INVOICE' as const,
    doc_no: 'I3',
    debit: 400000,
    credit: 0,
  },
  {
    customer_code: 'C002',
    entry_date: '2026-05-10',
    doc_type: 'INVOICE' as const,
    doc_no: 'I4',
    debit: 50000,
    credit: 0,
  },
  {
    customer_code: 'C002',
    entry_date: '2026-05-20',
    doc_type: 'CREDIT_NOTE' as const,
    doc_no: 'CN1',
    debit: 0,
    credit: 60000,
  },
  {
    customer_code: 'C004',
    entry_date: '2026-06-10',
    doc_type: 'INVOICE' as const,
    doc_no: 'I7',
    debit: 30000,
    credit: 0,
  },
  {
    customer_code: 'C004',
    entry_date: '2026-06-15',
    doc_type: 'RECEIPT' as const,
    doc_no: 'R3',
    debit: 0,
    credit: 3000,
  },
  {
    customer_code: 'C006',
    entry_date: '2026-01-15',
    doc_type: 'INVOICE' as const,
    doc_no: 'I9',
    debit: 80000,
    credit: 0,
  },
];

const WARRANTY = [
  { request_no: 'WR0000001', customer_code: 'C001', status: 'SUBMITTED' as const },
  { request_no: 'WR0000002', customer_code: 'C002', status: 'CLOSED' as const },
  { request_no: 'WR0000003', customer_code: 'C004', status: 'REJECTED' as const },
  { request_no: 'WR0000004', customer_code: 'C004', status: 'DISPATCHED' as const },
  { request_no: 'WR0000005', customer_code: 'C003', status: 'APPROVED' as const },
];

const ACTIVITIES = [
  { activity_no: 'A1', customer_code: 'C001', status: 'PENDING' as const },
  { activity_no: 'A2', customer_code: 'C003', status: 'PENDING' as const },
  { activity_no: 'A3', customer_code: 'C004', status: 'APPROVED' as const },
  { activity_no: 'A4', customer_code: 'C004', status: 'PENDING' as const },
  { activity_no: 'A5', customer_code: 'C006', status: 'REJECTED' as const },
];

const ownerOf = (customer: string) => ALL_CUSTOMERS.find((c) => c.code === customer)!.sales_officer_id;

async function insertTransactions(engine: Engine): Promise<void> {
  const db = engine.db;
  await insertMasterData(db);
  await db.insertInto('customers').values(C006).execute();
  await db
    .insertInto('orders')
    .values(ORDERS.map((o) => ({ ...o, sales_officer_id: ownerOf(o.customer_code), profit_center_code: 'PC1' })))
    .execute();
  await db.insertInto('order_lines').values(ORDER_LINES).execute();
  await db
    .insertInto('invoices')
    .values(INVOICES.map((i) => ({ ...i, sales_officer_id: ownerOf(i.customer_code), profit_center_code: 'PC1' })))
    .execute();
  await db.insertInto('invoice_lines').values(INVOICE_LINES).execute();
  await db
    .insertInto('receipts')
    .values(
      RECEIPTS.map((r) => ({
        ...r,
        sales_officer_id: ownerOf(r.customer_code),
        payment_method: 'NEFT' as const,
        reference: r.receipt_no,
      })),
    )
    .execute();
  await db.insertInto('ledger_entries').values(LEDGER).execute();
  await db
    .insertInto('warranty_requests')
    .values(
      WARRANTY.map((w, i) => ({
        ...w,
        client_request_id: null,
        sales_officer_id: ownerOf(w.customer_code),
        product_code: 'P001',
        serial_no: `SN${i}`,
        invoice_no: null,
        purchase_date: null,
        complaint: 'Does not start',
        transporter: null,
        lr_no: null,
        lr_date: null,
        vehicle_no: null,
        created_at: '2026-06-01T08:00:00.000Z',
        updated_at: '2026-06-01T08:00:00.000Z',
        version: 1,
        change_seq: i + 1,
      })),
    )
    .execute();
  await db
    .insertInto('activities')
    .values(
      ACTIVITIES.map((a) => ({
        ...a,
        activity_date: '2026-06-01',
        activity_type: 'VISIT',
        sales_officer_id: ownerOf(a.customer_code),
        description: 'Visit',
        decided_by: null,
        decided_at: null,
        remarks: null,
      })),
    )
    .execute();
  // Rows written with plain SQL, as a manual fix would be: the summaries are rebuilt after it.
  await rebuildSummaries(db);
}

/** The dashboard worked out in plain JS from the rows above, for the customers of `officers` (undefined = all). */
function expected(officers: string[] | undefined, asOf: string, yearStart: string) {
  const inScope = (customer: string) => officers === undefined || officers.includes(ownerOf(customer));
  const monthStart = `${asOf.slice(0, 7)}-01`;
  const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const invoices = INVOICES.filter((i) => inScope(i.customer_code) && i.invoice_date <= asOf);
  const pending = ORDERS.filter((o) => o.status === 'OPEN' && o.order_date <= asOf && inScope(o.customer_code)).map(
    (o) => {
      const owed = ORDER_LINES.filter((l) => l.order_no === o.order_no).map((l) => {
        const delivered = INVOICE_LINES.filter(
          (il) =>
            il.order_no === l.order_no &&
            il.order_line_no === l.line_no &&
            INVOICES.find((i) => i.invoice_no === il.invoice_no)!.invoice_date <= asOf,
        );
        return {
          q: Math.max(l.quantity - sum(delivered.map((d) => d.quantity)), 0),
          v: Math.max(l.value - sum(delivered.map((d) => d.value)), 0),
        };
      });
      return { q: sum(owed.map((x) => x.q)), v: sum(owed.map((x) => x.v)) };
    },
  );
  const owing = pending.filter((p) => p.q > 0);
  const ledger = LEDGER.filter((e) => inScope(e.customer_code) && e.entry_date <= asOf);
  return {
    AsOf: asOf,
    SalesMTD: sum(invoices.filter((i) => i.invoice_date >= monthStart).map((i) => i.amount)) / 100,
    SalesYTD: sum(invoices.filter((i) => i.invoice_date >= yearStart).map((i) => i.amount)) / 100,
    PendingOrders: owing.length,
    PendingOrderValue: sum(owing.map((p) => p.v)) / 100,
    CollectionsMTD:
      sum(
        RECEIPTS.filter((r) => inScope(r.customer_code) && r.receipt_date >= monthStart && r.receipt_date <= asOf).map(
          (r) => r.amount,
        ),
      ) / 100,
    Outstanding: (sum(ledger.map((e) => e.debit)) - sum(ledger.map((e) => e.credit))) / 100,
    OpenWarrantyRequests: WARRANTY.filter((w) => inScope(w.customer_code) && !['REJECTED', 'CLOSED'].includes(w.status))
      .length,
    PendingActivities: ACTIVITIES.filter((a) => inScope(a.customer_code) && a.status === 'PENDING').length,
    Customers: ALL_CUSTOMERS.filter((c) => c.active === 1 && inScope(c.code)).length,
    SalesOfficers: USERS.filter(
      (u) => u.role === 'SO' && u.active === 1 && (officers === undefined || officers.includes(u.id)),
    ).length,
  };
}

const AM01_SCOPE = ['AM01', 'SO01', 'SO02', 'SO04'];
const ZM01_SCOPE = ['ZM01', ...AM01_SCOPE];

describe.each(ENGINES)('getSalesReportStats: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertTransactions(engine),
  );

  const run = async (fields: Record<string, string>, options: Parameters<typeof runOperation>[3] = {}) =>
    (await runOperation(getSalesReportStats, engine, fields, options)).data;

  it('with no fields shows the whole company as of the clock date', async () => {
    const data = await run({});
    expect(data).toEqual({ Username: null, Role: 'ADMIN', ...expected(undefined, '2026-06-15', '2026-04-01') });
    // Worked by hand: June invoices to the 15th I1 + I2 + I7 + I10 = 1000 + 2000 + 300 + 150.
    expect(data).toMatchObject({
      SalesMTD: 3450,
      PendingOrders: 3,
      PendingOrderValue: 1140,
      Customers: 5,
      SalesOfficers: 4,
    });
  });

  it('shows an officer their own customers, found by username or id in any case', async () => {
    const want = { Username: 'so.one', Role: 'SO', ...expected(['SO01'], '2026-06-15', '2026-04-01') };
    expect(await run({ Username: 'SO.One' })).toEqual(want);
    expect(await run({ Username: 'so01', Role: 'so' })).toEqual(want);
  });

  it('shows a manager everyone below them', async () => {
    expect(await run({ Username: 'am.north' })).toEqual({
      Username: 'am.north',
      Role: 'AM',
      ...expected(AM01_SCOPE, '2026-06-15', '2026-04-01'),
    });
    expect(await run({ Username: 'ZM02', Role: 'ZM' })).toEqual({
      Username: 'zm.south',
      Role: 'ZM',
      ...expected(['ZM02', 'AM02', 'SO03'], '2026-06-15', '2026-04-01'),
    });
  });

  it('keeps the stored scope for a role between SO and the stored one', async () => {
    expect(await run({ Username: 'zm.north', Role: 'Am' })).toEqual({
      Username: 'zm.north',
      Role: 'AM',
      ...expected(ZM01_SCOPE, '2026-06-15', '2026-04-01'),
    });
    expect(await run({ Username: 'admin', Role: 'ZM' })).toEqual({
      Username: 'admin',
      Role: 'ZM',
      ...expected(undefined, '2026-06-15', '2026-04-01'),
    });
  });

  it('narrows a manager asking for Role SO to the customers they own themselves', async () => {
    const data = await run({ Username: 'AM01', Role: 'SO' });
    expect(data).toEqual({ Username: 'am.north', Role: 'SO', ...expected(['AM01'], '2026-06-15', '2026-04-01') });
    expect(data).toMatchObject({ Customers: 1, SalesOfficers: 0, SalesMTD: 150, SalesYTD: 150 });
  });

  it('forbids a role above the stored one', async () => {
    const error = await run({ Username: 'am.north', Role: 'ZM' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'FORBIDDEN', field: 'Role' });
  });

  it('answers an unknown user with NOT_FOUND', async () => {
    const error = await run({ Username: 'nobody' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NOT_FOUND', field: 'Username' });
  });

  it('treats no Username as an ADMIN who owns no customers', async () => {
    expect(await run({ Role: 'AM' })).toEqual({
      Username: null,
      Role: 'AM',
      ...expected(undefined, '2026-06-15', '2026-04-01'),
    });
    expect(await run({ Role: 'SO' })).toEqual({
      Username: null,
      Role: 'SO',
      ...expected([], '2026-06-15', '2026-04-01'),
    });
  });

  it('computes as of AsOf, with the fiscal year that contains it', async () => {
    // 31 March 2026 lies in the fiscal year that started on 1 April 2025.
    expect(await run({ AsOf: '31/03/2026' })).toEqual({
      Username: null,
      Role: 'ADMIN',
      ...expected(undefined, '2026-03-31', '2025-04-01'),
    });
    expect(await run({ AsOf: '2026-06-16' })).toEqual({
      Username: null,
      Role: 'ADMIN',
      ...expected(undefined, '2026-06-16', '2026-04-01'),
    });
  });

  it('follows the fiscal year start month setting and the clock', async () => {
    const data = await run(
      { Username: 'am01', Role: 'so' },
      { settings: { fiscalYearStartMonth: 1 }, clock: fixedClock('2026-06-20T23:59:59Z') },
    );
    expect(data).toEqual({ Username: 'am.north', Role: 'SO', ...expected(['AM01'], '2026-06-20', '2026-01-01') });
    expect(data).toMatchObject({ SalesYTD: 950 });
  });

  it.each([
    [{ Role: 'Boss' }, 'Role'],
    [{ AsOf: '31/02/2026' }, 'AsOf'],
  ])('rejects %j as INVALID_PARAMETER naming %s', (fields, field) => expectInvalidParameter(run(fields), field));
});

describe.each(ENGINES)('getSalesReportStats on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('succeeds with zeros', async () => {
    const result = await runOperation(getSalesReportStats, engine, {});
    expect(result.data).toEqual({
      AsOf: '2026-06-15',
      Username: null,
      Role: 'ADMIN',
      SalesMTD: 0,
      SalesYTD: 0,
      PendingOrders: 0,
      PendingOrderValue: 0,
      CollectionsMTD: 0,
      Outstanding: 0,
      OpenWarrantyRequests: 0,
      PendingActivities: 0,
      Customers: 0,
      SalesOfficers: 0,
    });
  });
});

describe.each(ENGINES)('getSalesReportStats with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertTransactions(engine),
  );

  const runAs = async (id: string, fields: Record<string, string> = {}) =>
    (await runOperation(getSalesReportStats, engine, fields, { principal: principal(id) })).data;

  it('shows the user themselves when no Username is given: an officer their customers, a manager their tree, the admin all', async () => {
    expect(await runAs('SO01')).toEqual({
      Username: 'so.one',
      Role: 'SO',
      ...expected(officersSeenBy('SO01'), '2026-06-15', '2026-04-01'),
    });
    expect(await runAs('AM01')).toEqual({
      Username: 'am.north',
      Role: 'AM',
      ...expected(officersSeenBy('AM01'), '2026-06-15', '2026-04-01'),
    });
    expect(await runAs('ADM001')).toEqual({
      Username: 'admin',
      Role: 'ADMIN',
      ...expected(undefined, '2026-06-15', '2026-04-01'),
    });
  });

  it('answers another Username within the scope, and its Role may still narrow it', async () => {
    expect(await runAs('AM01', { Username: 'so.two' })).toEqual({
      Username: 'so.two',
      Role: 'SO',
      ...expected(['SO02'], '2026-06-15', '2026-04-01'),
    });
    expect(await runAs('ZM01', { Username: 'AM01', Role: 'SO' })).toEqual({
      Username: 'am.north',
      Role: 'SO',
      ...expected(['AM01'], '2026-06-15', '2026-04-01'),
    });
    expect(await runAs('ADM001', { Username: 'zm.south' })).toEqual({
      Username: 'zm.south',
      Role: 'ZM',
      ...expected(officersSeenBy('ZM02'), '2026-06-15', '2026-04-01'),
    });
  });

  it('answers a Username outside the scope (a colleague, a manager above) as an unknown one: NOT_FOUND, no officer id', async () => {
    const unknown = await runAs('SO01', { Username: 'nobody' }).catch((err: unknown) => err);
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', field: 'Username' });
    for (const [id, username] of [
      ['SO01', 'so.two'],
      ['SO01', 'am.north'],
      ['AM02', 'admin'],
    ]) {
      const hidden = await runAs(id, { Username: username }).catch((err: unknown) => err);
      expect(refusalShape(hidden, username)).toEqual(refusalShape(unknown, 'nobody'));
    }
    await expect(runAs('SO01', { Role: 'AM' })).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'Role' });
  });
});
