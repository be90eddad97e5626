/**
 * The report battery's calls (docs/summaries.md): each aggregated report under a dozen filter mixes,
 * with the codes they name read from the database itself. bench-reports times them; bench-memory runs
 * them beside the large lists. Not part of the test suite.
 */
import { firstUserOf } from '../src/demo-data/operation-calls';
import { withBenchData } from './bench-server';

export interface Codes {
  /** A customer, its officer and a product: the warranty requests written between the calls. */
  warranty: { customer: string; officer: string; product: string };
  officer: string;
  manager: string;
  zones: string[];
  categories: string[];
  customers: string[];
  profitCenter: string;
  lastDay: string;
}

export type Mix = [label: string, query: Record<string, string>];

/** Seeds scale 10 into an empty database; reads the codes the mixes name. */
export async function prepare(database: string): Promise<Codes> {
  return withBenchData(database, 10, async (engine) => {
    const db = engine.db;
    const officer = await firstUserOf(db, 'SO');
    const manager = await firstUserOf(db, 'ZM');
    const zones = await db.selectFrom('zones').select('code').orderBy('code').limit(2).execute();
    const categories = await db.selectFrom('product_categories').select('code').orderBy('code').execute();
    const customers = await db.selectFrom('customers').select('code').orderBy('code').execute();
    const pc = await db.selectFrom('profit_centers').select('code').orderBy('code').executeTakeFirstOrThrow();
    const last = await db
      .selectFrom('invoices')
      .select((eb) => eb.fn.max('invoice_date').as('day'))
      .executeTakeFirstOrThrow();
    const customer = await db
      .selectFrom('customers')
      .select(['code', 'sales_officer_id'])
      .orderBy('code')
      .executeTakeFirstOrThrow();
    const product = await db.selectFrom('products').select('code').orderBy('code').executeTakeFirstOrThrow();
    return {
      warranty: { customer: customer.code, officer: customer.sales_officer_id, product: product.code },
      officer: officer,
      manager: manager,
      zones: zones.map((z) => z.code),
      categories: categories.map((c) => c.code),
      customers: customers.map((c) => c.code),
      profitCenter: pc.code,
      lastDay: String(last.day),
    };
  });
}

/** The mixes: no filter, a month, a quarter, an odd range, one officer, zones + a category range, ... */
export function mixes(c: Codes): Record<string, Mix[]> {
  const y = Number(c.lastDay.slice(0, 4));
  const m = Number(c.lastDay.slice(5, 7));
  const month = (offset: number) => {
    const d = new Date(Date.UTC(y, m - 1 - offset, 1));
    return {
      first: d.toISOString().slice(0, 10),
      last: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).toISOString().slice(0, 10),
    };
  };
  const lastMonth = month(1);
  const quarter = { FromDate: month(3).first, ToDate: lastMonth.last };
  const odd = {
    FromDate: `${y - 1}-${String(m).padStart(2, '0')}-17`,
    ToDate: `${y}-${String(Math.max(1, m - 2)).padStart(2, '0')}-09`,
  };
  const customerRange = {
    FromCustomer: c.customers[Math.floor(c.customers.length * 0.2)],
    ToCustomer: c.customers[Math.floor(c.customers.length * 0.4)],
  };
  const cats = { FromPCat: c.categories[1], ToPCat: c.categories[4] };
  const common: Mix[] = [
    ['no filter', {}],
    ['a month', { FromDate: lastMonth.first, ToDate: lastMonth.last }],
    ['a quarter', quarter],
    ['an odd range', odd],
    ['from a date on', { FromDate: quarter.FromDate }],
    ['one officer', { SalesOfficer: c.officer }],
    ['zones + category range', { Zones: c.zones.join(','), ...cats }],
    ['customer range', customerRange],
    ['a profit center, a quarter', { profitCenter: c.profitCenter, ...quarter }],
    ['one customer', { FromCustomer: c.customers[7], ToCustomer: c.customers[7] }],
    ['categories, odd range', { ...cats, ...odd }],
  ];
  return {
    getSalesSummaryRecords: [...common, ['sorted by Value desc', { SortBy: 'Value', SortDirection: 'DESC' }]],
    getOrderVDeliverySummaryRecords: [
      ...common,
      ['sorted by PendingValue desc', { SortBy: 'PendingValue', SortDirection: 'DESC' }],
    ],
    getOrderVsDeliveryOfficer: [
      ['no filter', {}],
      ['a month', { FromDate: lastMonth.first, ToDate: lastMonth.last }],
      ['a quarter', quarter],
      ['an odd range', odd],
      ["one manager's team", { ManagerId: c.manager }],
      ["one manager's team, a quarter", { ManagerId: c.manager, ...quarter }],
      ['one officer', { SalesOfficer: c.officer }],
      ['zones', { Zones: c.zones.join(',') }],
      ['zones, a quarter', { Zones: c.zones.join(','), ...quarter }],
      ['sorted by DeliveryPercent', { SortBy: 'DeliveryPercent', SortDirection: 'DESC' }],
    ],
    getSalesReportStats: [
      ['company-wide', {}],
      ['company-wide, AsOf a month back', { AsOf: lastMonth.last }],
      ["a zonal manager's scope", { Username: c.manager }],
      ['one officer', { Username: c.officer }],
    ],
    getOpeningBalance: [
      ['all customers', { Month: String(m), Year: String(y) }],
      ['all customers, a year back', { Month: String(m), Year: String(y - 1) }],
      ['3 customers', { CustomerIds: c.customers.slice(0, 3).join(','), Month: String(m), Year: String(y) }],
    ],
  };
}
