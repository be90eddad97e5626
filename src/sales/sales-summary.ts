/**
 * getSalesSummaryRecords (domain.md): invoiced sales per customer, from the invoice lines that match
 * the filters. A customer appears only with at least one matching line; InvoiceCount counts the
 * invoices that have one. SalesOfficer filters on the invoice's officer, while the row shows
 * the customer's own officer (who owns the account today).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/money';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { filterConditions, resolveFilters, type ReportFilterInput, type ResolvedFilters } from './report-filters';
import { sortRows } from './sort-rows';
import type { OfficerBound } from '../users/principal-scope';

export const SALES_SUMMARY_FIELDS = ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', 'SalesOfficer', 'InvoiceCount', 'Quantity', 'Value'] as const;
export type SalesSummaryField = (typeof SALES_SUMMARY_FIELDS)[number];

export interface SalesSummaryRow {
  CustomerCode: string;
  CustomerName: string;
  StateCode: string;
  ZoneCode: string;
  SalesOfficer: string;
  InvoiceCount: number;
  Quantity: number;
  Value: number;
}

interface SalesSummaryRecord {
  code: string;
  name: string;
  state_code: string;
  zone_code: string;
  sales_officer_id: string;
  invoice_count: number;
  quantity: number;
  value_minor: number;
}

/** `allowed`: the authenticated user's bound (principal-scope.ts), customers of those officers only. */
export async function salesSummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<SalesSummaryField>, allowed?: OfficerBound): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  const records = filters === undefined ? [] : await selectSalesPerCustomer(db, filters);
  const rows = sortRows(records.map(toRow), order, 'CustomerCode');
  return { data: rows, totals: salesTotals(records) };
}

/**
 * Lines are summed per invoice first (read through the invoice date/officer/customer indexes and the
 * lines' primary key), then per customer; names, states and zones are joined to the ~one row per
 * customer that is left, not to every line.
 */
async function selectSalesPerCustomer(db: Kysely<Database>, filters: ResolvedFilters): Promise<SalesSummaryRecord[]> {
  const conditions = filterConditions(filters, {
    officer: 'i.sales_officer_id',
    profitCenter: 'i.profit_center_code',
    date: 'i.invoice_date',
    customer: 'i.customer_code',
    category: 'l.category_code',
  });
  const perInvoice = db
    .selectFrom('invoices as i')
    .innerJoin('invoice_lines as l', 'l.invoice_no', 'i.invoice_no')
    .where((eb) => eb.and(conditions))
    .groupBy(['i.invoice_no', 'i.customer_code'])
    .select((eb) => ['i.customer_code', eb.fn.sum<number>('l.quantity').as('quantity'), eb.fn.sum<number>('l.value').as('value_minor')]);
  const perCustomer = db
    .selectFrom(perInvoice.as('y'))
    .groupBy('y.customer_code')
    .select((eb) => ['y.customer_code', eb.fn.countAll<number>().as('invoice_count'), eb.fn.sum<number>('y.quantity').as('quantity'), eb.fn.sum<number>('y.value_minor').as('value_minor')]);
  const rows = await db
    .selectFrom(perCustomer.as('x'))
    .innerJoin('customers as c', 'c.code', 'x.customer_code')
    .innerJoin('states as s', 's.code', 'c.state_code')
    .select(['c.code', 'c.name', 'c.state_code', 's.zone_code', 'c.sales_officer_id', 'x.invoice_count', 'x.quantity', 'x.value_minor'])
    .execute();
  // PostgreSQL hands count/sum back as int8/numeric; engine.ts parses them, Number() makes it explicit.
  return rows.map((r) => ({ ...r, invoice_count: Number(r.invoice_count), quantity: Number(r.quantity), value_minor: Number(r.value_minor) }));
}

function toRow(r: SalesSummaryRecord): SalesSummaryRow {
  return {
    CustomerCode: r.code,
    CustomerName: r.name,
    StateCode: r.state_code,
    ZoneCode: r.zone_code,
    SalesOfficer: r.sales_officer_id,
    InvoiceCount: r.invoice_count,
    Quantity: r.quantity,
    Value: amount(r.value_minor),
  };
}

/** Totals are the sums of the rows (money summed in minor units, then converted once). */
function salesTotals(records: SalesSummaryRecord[]): Record<string, number> {
  let invoices = 0;
  let quantity = 0;
  let value = 0;
  for (const r of records) {
    invoices += r.invoice_count;
    quantity += r.quantity;
    value += r.value_minor;
  }
  return { InvoiceCount: invoices, Quantity: quantity, Value: amount(value) };
}
