/**
 * getCustomerSaless (docs/behaviour.md): invoiced sales per customer, from the invoice lines that match
 * the filters. A customer appears only with at least one matching line; InvoiceCount counts the
 * invoices that have one. SalesOfficer filters on the invoice's officer, while the row shows
 * the customer's own officer (who owns the account today).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/values';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { salesRowsWhole, type CustomerSales } from './repository';
import { sortedWhole } from './sort-rows';
import type { RowShape } from '../db/row-shape';
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

/**
 * `allowed`: the authenticated user's bound (principal-scope.ts), customers of those officers only.
 * `streams`: the caller takes the rows as JSON (JsonRows, OperationContext.streams). The rows are
 * made where they are read, as JSON bytes (repository.ts, salesRowsWhole): a company-wide report is
 * 30,000 rows, which as objects on the event loop cost more in collections of the young generation
 * than in anything else (docs/architecture.md, "Rows shaped where they are read").
 */
export async function salesSummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<SalesSummaryField>, allowed?: OfficerBound, streams = false): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  const descending = order.direction === 'desc';
  const read = filters === undefined ? undefined : await salesRowsWhole(db, filters, SALES_SHAPE, { column: RECORD_COLUMNS[order.field], descending, check: { field: order.field, descending, key: 'CustomerCode' } });
  if (read === undefined) return { data: [], totals: salesTotals({ invoice_count: 0, quantity: 0, value_minor: 0 }) };
  const totals = salesTotals(read.totals);
  return { data: sortedWhole<SalesSummaryRow, SalesSummaryField, 'CustomerCode'>(read.rows, order, 'CustomerCode', streams), totals };
}

/** The record column behind each field of the row (toRow). */
const RECORD_COLUMNS: Readonly<Record<SalesSummaryField, keyof CustomerSales>> = {
  CustomerCode: 'code',
  CustomerName: 'name',
  StateCode: 'state_code',
  ZoneCode: 'zone_code',
  SalesOfficer: 'sales_officer_id',
  InvoiceCount: 'invoice_count',
  Quantity: 'quantity',
  Value: 'value_minor',
};

/** The answer's row made from the query's: counts as numbers, the value from minor units. */
const SALES_SHAPE: RowShape = SALES_SUMMARY_FIELDS.map((name) => ({ name, column: RECORD_COLUMNS[name], conversion: name === 'Value' ? 'money' : name === 'InvoiceCount' || name === 'Quantity' ? 'number' : 'value' }));

/** Totals are the sums of the rows (money summed in minor units, then converted once). */
function salesTotals(sums: Pick<CustomerSales, 'invoice_count' | 'quantity' | 'value_minor'>): Record<string, number> {
  return { InvoiceCount: sums.invoice_count, Quantity: sums.quantity, Value: amount(sums.value_minor) };
}
