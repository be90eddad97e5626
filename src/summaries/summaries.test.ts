/**
 * The summary data (docs/summaries.md) against the raw rows, on both engines:
 * - each report's sums computed from the summaries equal the same sums computed from the raw rows
 *   (test/support/raw-reports.ts, the queries the reports ran before), over random filter mixes on
 *   the demo data (seeded: partial and late deliveries, cancelled orders, many categories per invoice);
 * - a date range is covered exactly by its years, months and days;
 * - a CSV import keeps the summaries in step; a raw write without upkeep is found by the check and
 *   mended by a rebuild or a refresh of the customers it touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Engine } from '../db/engine';
import { findImportFiles } from '../import/import-files';
import { runImport } from '../import/import-run';
import { seed } from '../demo-data';
import { Random } from '../demo-data/random';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { balancesSelect } from '../collections/balance-reads';
import { resolveFilters, type ReportFilterInput, type ResolvedFilters } from '../sales/report-filters';
import { collectionsTotal, outstandingTotal, pendingOrders, salesTotals } from '../sales/repository';
import {
  deliveriesPerCustomerQuery,
  deliveriesPerOfficer,
  deliveryRecord,
  salesPerCustomerQuery,
  type CustomerColumns,
} from '../sales/repository';
import { ENGINES, freshEngine } from '../../test/support/engines';
import {
  rawBalancesBefore,
  rawCollectionsTotal,
  rawDeliveriesPerCustomer,
  rawDeliveriesPerOfficer,
  rawOutstandingTotal,
  rawPendingOrders,
  rawSalesPerCustomer,
  rawSalesTotals,
} from '../../test/support/raw-reports';
import { checkSummaries } from './check';
import { periodSpans } from './periods';
import { rebuildSummaries, refreshSummaries } from './upkeep';

const AS_OF = '2026-06-20';

/** A report's customer columns under the names the raw reference gives them (test/support/raw-reports.ts). */
function rawCustomer(r: CustomerColumns) {
  return {
    code: r.CustomerCode,
    name: r.CustomerName,
    state_code: r.StateCode,
    zone_code: r.ZoneCode,
    sales_officer_id: r.SalesOfficer,
  };
}

/** getSalesSummaryRecords' sums per customer, as plain numbers (numeric text on PostgreSQL). */
async function salesPerCustomer(db: Kysely<Database>, filters: ResolvedFilters) {
  const query = await salesPerCustomerQuery(db, filters);
  const rows = query === undefined ? [] : (await query.execute(db)).rows;
  return rows.map((r) => ({
    ...rawCustomer(r),
    invoice_count: Number(r.InvoiceCount),
    quantity: Number(r.Quantity),
    value_minor: Number(r.Value),
  }));
}

/** The order-versus-delivery measures per customer, as plain numbers. */
async function deliveriesPerCustomer(db: Kysely<Database>, filters: ResolvedFilters) {
  const { rows } = await (await deliveriesPerCustomerQuery(db, filters)).execute(db);
  return rows.map((r) => ({ ...rawCustomer(r), ...deliveryRecord(r) }));
}

/** Each customer's balance before the month by code, as plain numbers. */
async function balancesBeforeMonth(
  db: Kysely<Database>,
  upperCodes: readonly string[] | undefined,
  firstOfMonth: string,
  customerOfficers?: readonly string[],
) {
  const read = await balancesSelect(db, upperCodes, firstOfMonth, customerOfficers);
  if (read === undefined) return [];
  const rows = await read.query.select(read.balance.as('balance')).execute();
  return rows.map((r) => ({ ...r, balance: Number(r.balance) }));
}
const MIXES = 60;

/** Day-by-day: the days the spans cover, each once. */
function coveredDays(from: string | undefined, to: string | undefined, universe: string[]): string[] {
  const spans = periodSpans(from, to);
  return universe.filter((day) => {
    const hits = spans.filter((s) => {
      const start = s.kind === 'D' ? day : s.kind === 'M' ? `${day.slice(0, 7)}-01` : `${day.slice(0, 4)}-01-01`;
      return start >= s.first && start <= s.last;
    });
    if (hits.length > 1) throw new Error(`${day} is covered ${hits.length} times by ${JSON.stringify(spans)}`);
    return hits.length === 1;
  });
}

function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (const d = new Date(`${first}T00:00:00Z`); d.toISOString().slice(0, 10) <= last; d.setUTCDate(d.getUTCDate() + 1))
    days.push(d.toISOString().slice(0, 10));
  return days;
}

describe('periodSpans', () => {
  const universe = daysBetween('2023-11-01', '2027-02-28');
  const random = new Random('period-spans');
  const pick = () => universe[random.int(0, universe.length - 1)];
  const edges = ['2024-01-01', '2024-12-31', '2024-02-29', '2025-01-31', '2025-02-01', '2025-12-01', '2026-06-30'];

  it('covers exactly the days of a range, each once, for random and edge ranges', () => {
    const ranges: [string | undefined, string | undefined][] = [[undefined, undefined]];
    for (const a of edges) for (const b of edges) ranges.push([a, b]);
    for (const e of edges) ranges.push([e, undefined], [undefined, e]);
    for (let i = 0; i < 400; i++) ranges.push([pick(), pick()]);
    for (const [from, to] of ranges) {
      const expected = universe.filter((d) => (from === undefined || d >= from) && (to === undefined || d <= to));
      expect({ from, to, days: coveredDays(from, to, universe) }).toEqual({ from, to, days: expected });
    }
  });

  it('reads a whole year, month or day as one row each', () => {
    expect(periodSpans('2025-01-01', '2025-12-31')).toEqual([{ kind: 'Y', first: '2025-01-01', last: '2025-01-01' }]);
    expect(periodSpans('2026-03-01', '2026-03-31')).toEqual([{ kind: 'M', first: '2026-03-01', last: '2026-03-01' }]);
    expect(periodSpans('2026-03-05', '2026-03-05')).toEqual([{ kind: 'D', first: '2026-03-05', last: '2026-03-05' }]);
    expect(periodSpans('2026-03-06', '2026-03-05')).toEqual([]);
  });
});

/** A random filter mix over the seeded company. */
interface Company {
  officers: string[];
  customers: string[];
  profitCenters: string[];
  categories: string[];
  zones: string[];
  states: string[];
  days: string[];
}

async function companyOf(engine: Engine): Promise<Company> {
  const db = engine.db;
  const list = async (q: Promise<{ v: string }[]>) => (await q).map((r) => r.v);
  return {
    officers: await list(db.selectFrom('users').select('id as v').where('role', '=', 'SO').orderBy('id').execute()),
    customers: await list(db.selectFrom('customers').select('code as v').orderBy('code').execute()),
    profitCenters: await list(db.selectFrom('profit_centers').select('code as v').orderBy('code').execute()),
    categories: await list(db.selectFrom('product_categories').select('code as v').orderBy('code').execute()),
    zones: await list(db.selectFrom('zones').select('code as v').orderBy('code').execute()),
    states: await list(db.selectFrom('states').select('code as v').orderBy('code').execute()),
    days: daysBetween('2025-03-25', '2026-07-05'),
  };
}

function randomInput(r: Random, c: Company): { input: ReportFilterInput; allowed?: string[] } {
  const maybe = <T>(p: number, value: () => T): T | undefined => (r.chance(p) ? value() : undefined);
  const day = () =>
    r.chance(0.3)
      ? r.pick(c.days.filter((d) => d.endsWith('-01') || d.endsWith('-31') || d.endsWith('-30')))
      : r.pick(c.days);
  const ordered = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
  const [fromDate, toDate] = ordered(maybe(0.6, day), maybe(0.6, day));
  const customerMode = r.int(0, 3);
  const one = r.pick(c.customers);
  const [fromCustomer, toCustomer] = ordered(r.pick(c.customers), r.pick(c.customers));
  const customers = [
    {},
    { from: one, to: one },
    { from: fromCustomer, to: toCustomer },
    r.chance(0.5) ? { from: fromCustomer } : { to: toCustomer },
  ][customerMode];
  const [fromCat, toCat] = ordered(r.pick(c.categories), r.pick(c.categories));
  return {
    input: {
      salesOfficer: maybe(0.2, () => r.pick(c.officers)),
      customers,
      profitCenter: maybe(0.25, () => r.pick(c.profitCenters)),
      dates: { from: fromDate, to: toDate },
      categories: r.chance(0.35) ? { from: fromCat, to: toCat } : {},
      zones: maybe(0.2, () => [r.pick(c.zones), r.pick(c.zones)]),
      states: maybe(0.15, () => [r.pick(c.states), r.pick(c.states), r.pick(c.states)]),
    },
    allowed: maybe(0.15, () => c.officers.filter(() => r.chance(0.3))),
  };
}

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

describe.each(ENGINES)('summary data against the raw rows: %s', (kind) => {
  let engine: Engine;
  let company: Company;

  beforeAll(async () => {
    engine = await freshEngine(kind);
    await seed(engine, { scale: 0.05, asOf: AS_OF });
    company = await companyOf(engine);
  });
  afterAll(() => engine.close());

  /** Random mixes with their resolved filters (a mix that names nothing stored resolves to none). */
  async function mixes(name: string): Promise<{ label: string; filters: ResolvedFilters }[]> {
    const r = new Random(`summaries:${name}`);
    const out: { label: string; filters: ResolvedFilters }[] = [];
    while (out.length < MIXES) {
      const { input, allowed } = randomInput(r, company);
      const filters = await resolveFilters(engine.db, input, undefined);
      if (filters !== undefined)
        out.push({ label: JSON.stringify({ input, allowed }), filters: { ...filters, customerOfficers: allowed } });
    }
    return out;
  }

  it('the stored summaries are in step after seeding', async () => {
    const check = await checkSummaries(engine.db);
    expect(check.inStep).toBe(true);
    expect(check.tables.find((t) => t.table === 'sales_period_totals')!.rows).toBeGreaterThan(1000);
  });

  it('sales per customer: the same sums for every filter mix', async () => {
    let nonEmpty = 0;
    for (const { label, filters } of await mixes('sales')) {
      const summary = (await salesPerCustomer(engine.db, filters)).sort(byKey((r) => r.code));
      const raw = (await rawSalesPerCustomer(engine.db, filters)).sort(byKey((r) => r.code));
      expect({ label, rows: summary }).toEqual({ label, rows: raw });
      if (raw.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(MIXES / 3);
  });

  it('order versus delivery per customer and per officer: the same measures for every filter mix', async () => {
    let nonEmpty = 0;
    for (const { label, filters } of await mixes('deliveries')) {
      // The reference selects no owner column; the report does not show it either.
      const summary = (await deliveriesPerCustomer(engine.db, filters))
        .map(({ sales_officer_id: _owner, ...r }) => r)
        .sort(byKey((r) => r.code));
      const raw = (await rawDeliveriesPerCustomer(engine.db, filters)).sort(byKey((r) => r.code));
      expect({ label, rows: summary }).toEqual({ label, rows: raw });
      const officers = filters.customerOfficers === undefined ? undefined : [...filters.customerOfficers];
      const perOfficer = { ...filters, customerOfficers: undefined };
      expect({
        label,
        officers: Object.fromEntries(await deliveriesPerOfficer(engine.db, perOfficer, officers)),
      }).toEqual({
        label,
        officers: Object.fromEntries(await rawDeliveriesPerOfficer(engine.db, perOfficer, officers)),
      });
      if (raw.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(MIXES / 3);
  });

  it('opening balances and the dashboard sums: the same for every month, AsOf and scope', async () => {
    const r = new Random('summaries:ledger');
    for (let i = 0; i < MIXES; i++) {
      const asOf = r.pick(company.days.concat(['2024-12-31', '2027-03-15']));
      const firstOfMonth = `${asOf.slice(0, 7)}-01`;
      const codes = r.chance(0.3) ? [r.pick(company.customers), r.pick(company.customers), 'NOPE'] : undefined;
      const officers = r.chance(0.4) ? company.officers.filter(() => r.chance(0.3)) : undefined;
      const label = JSON.stringify({ asOf, codes, officers });
      expect({ label, rows: await balancesBeforeMonth(engine.db, codes, firstOfMonth, officers) }).toEqual({
        label,
        rows: await rawBalancesBefore(engine.db, codes, firstOfMonth, officers),
      });
      const period = {
        asOf,
        monthStart: firstOfMonth,
        yearStart:
          `${asOf.slice(0, 4)}-04-01` > asOf ? `${Number(asOf.slice(0, 4)) - 1}-04-01` : `${asOf.slice(0, 4)}-04-01`,
      };
      expect({ label, sales: await salesTotals(engine.db, officers, period) }).toEqual({
        label,
        sales: await rawSalesTotals(engine.db, officers, period),
      });
      expect({ label, pending: await pendingOrders(engine.db, officers, asOf) }).toEqual({
        label,
        pending: await rawPendingOrders(engine.db, officers, asOf),
      });
      expect({ label, collected: await collectionsTotal(engine.db, officers, period) }).toEqual({
        label,
        collected: await rawCollectionsTotal(engine.db, officers, period),
      });
      expect({ label, outstanding: await outstandingTotal(engine.db, officers, period) }).toEqual({
        label,
        outstanding: await rawOutstandingTotal(engine.db, officers, asOf),
      });
    }
  });
});

describe.each(ENGINES)('keeping the summary data in step: %s', (kind) => {
  let engine: Engine;

  beforeEach(async () => {
    engine = await freshEngine(kind);
    await seed(engine, { scale: 0.05, asOf: AS_OF });
  });
  afterEach(() => engine.close());

  /** A customer with an OPEN order that has lines, its officer and profit center, and one of its invoices. */
  async function someOpenOrder() {
    const order = await engine.db
      .selectFrom('orders as o')
      .innerJoin('order_lines as ol', 'ol.order_no', 'o.order_no')
      .select([
        'o.order_no',
        'o.customer_code',
        'o.sales_officer_id',
        'o.profit_center_code',
        'ol.line_no',
        'ol.product_code',
        'ol.category_code',
        'ol.quantity',
      ])
      .where('o.status', '=', 'OPEN')
      .orderBy('o.order_no')
      .executeTakeFirstOrThrow();
    const invoice = await engine.db
      .selectFrom('invoices')
      .selectAll()
      .where('customer_code', '!=', order.customer_code)
      .orderBy('invoice_no')
      .executeTakeFirstOrThrow();
    return { order, invoice };
  }

  it('a CSV import of documents refreshes exactly what it touched, in step with a rebuild', async () => {
    const { order, invoice } = await someOpenOrder();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summaries-import-'));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    // A delivery against an open order (late: after AsOf), an invoice moved to that order's customer
    // and another day, a receipt, and a ledger entry two months past the horizon.
    write(
      'invoices.csv',
      'invoice_no,invoice_date,customer_code,sales_officer_id,profit_center_code,order_no,amount\n' +
        `NEWINV1,2026-08-03,${order.customer_code},${order.sales_officer_id},${order.profit_center_code},${order.order_no},500\n` +
        `${invoice.invoice_no},2026-02-14,${order.customer_code},${invoice.sales_officer_id},${invoice.profit_center_code},,${invoice.amount / 100}\n`,
    );
    write(
      'invoice_lines.csv',
      'invoice_no,line_no,product_code,category_code,quantity,value,order_no,order_line_no\n' +
        `NEWINV1,1,${order.product_code},${order.category_code},${order.quantity + 5},500,${order.order_no},${order.line_no}\n`,
    );
    write(
      'receipts.csv',
      'receipt_no,receipt_date,customer_code,sales_officer_id,payment_method,reference,amount\n' +
        `NEWRCP1,2026-06-02,${order.customer_code},${order.sales_officer_id},NEFT,UTR1,250\n`,
    );
    write(
      'ledger_entries.csv',
      'customer_code,entry_date,doc_type,doc_no,debit,credit\n' +
        `${order.customer_code},2026-08-03,INVOICE,NEWINV1,500,0\n`,
    );
    const { files } = findImportFiles(dir);
    const results = await runImport(
      engine,
      files,
      { dryRun: false, dateOrder: 'DMY' },
      {
        reject: (line) => {
          throw new Error(JSON.stringify(line));
        },
        fileDone: () => undefined,
      },
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 'loaded'));
    const check = await checkSummaries(engine.db);
    expect(check).toEqual({ ...check, inStep: true, facts: [] });
    expect(check.tables.every((t) => t.extra === 0 && t.missing === 0)).toBe(true);
  });

  it('a raw write without upkeep is found by the check, and a refresh of its customer or a rebuild mends it', async () => {
    const { order } = await someOpenOrder();
    await sql`update order_lines set quantity = quantity + 7 where order_no = ${order.order_no}`.execute(engine.db);
    await sql`delete from invoice_lines where invoice_no = (select min(invoice_no) from invoices where customer_code = ${order.customer_code})`.execute(
      engine.db,
    );
    const broken = await checkSummaries(engine.db);
    expect(broken.inStep).toBe(false);
    const outOf = broken.tables.filter((t) => t.extra + t.missing > 0).map((t) => t.table);
    expect(outOf).toEqual(
      expect.arrayContaining(['sales_period_totals', 'order_period_totals', 'open_order_balances']),
    );
    // The check changed nothing: the same answer twice.
    expect(await checkSummaries(engine.db)).toEqual(broken);

    await refreshSummaries(engine.db, [order.customer_code]);
    expect((await checkSummaries(engine.db)).inStep).toBe(true);

    await sql`update orders set status = 'CANCELLED' where order_no = ${order.order_no}`.execute(engine.db);
    expect((await checkSummaries(engine.db)).inStep).toBe(false);
    await engine.db.transaction().execute((trx) => rebuildSummaries(trx));
    expect((await checkSummaries(engine.db)).inStep).toBe(true);
  });
});
