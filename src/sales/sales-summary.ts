/**
 * getSalesSummaryRecords (docs/behaviour.md): invoiced sales per customer. SalesOfficer filters on the
 * invoice's officer, while the row shows the customer's own officer (who owns the account today).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount, plainNumber } from '../operations/values';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { countRows, rowBatches, StreamedData } from '../operations/streamed';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { inOrder, salesPerCustomerQuery, sqlOrderHolds, type CustomerSales, type CustomerSalesSums } from './repository';
import { sortedReport } from './sort-rows';
import type { OfficerBound } from '../users/principal-scope';

export const SALES_SUMMARY_FIELDS = ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', 'SalesOfficer', 'InvoiceCount', 'Quantity', 'Value'] as const;
export type SalesSummaryField = (typeof SALES_SUMMARY_FIELDS)[number];

/** A company-wide report is a row per customer, streamed from a cursor as the lists are (sortedReport). */
export async function salesSummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<SalesSummaryField>, allowed?: OfficerBound, streams = false): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  if (filters === undefined) return { data: [], totals: salesTotals({ invoice_count: 0, quantity: 0, value_minor: 0 }) };
  const sqlOrder = { column: RECORD_COLUMNS[order.field], descending: order.direction === 'desc' };
  return sortedReport<ReturnType<typeof toRow>, SalesSummaryField, 'CustomerCode'>(db, streams, order, 'CustomerCode', (trx) => sqlOrderHolds(trx, sqlOrder.column), async (trx, end) => {
    const query = await salesPerCustomerQuery(trx, filters);
    const sums = { invoice_count: 0, quantity: 0, value_minor: 0 };
    const rows = () =>
      rowBatches(trx, query && inOrder(trx, query, sqlOrder), (r: CustomerSalesSums) => {
        const row = toRow(r);
        sums.invoice_count += row.InvoiceCount;
        sums.quantity += row.Quantity;
        sums.value_minor += plainNumber(r.value_minor);
        return row;
      });
    return new StreamedData({ kind: 'rows', rows }, () => countRows(trx, query), () => salesTotals(sums), end);
  });
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
function toRow(r: CustomerSalesSums) {
  return {
    CustomerCode: r.code,
    CustomerName: r.name,
    StateCode: r.state_code,
    ZoneCode: r.zone_code,
    SalesOfficer: r.sales_officer_id,
    InvoiceCount: plainNumber(r.invoice_count),
    Quantity: plainNumber(r.quantity),
    Value: amount(r.value_minor),
  };
}

/** Totals are the sums of the rows (money summed in minor units, then converted once). */
function salesTotals(sums: Pick<CustomerSales, 'invoice_count' | 'quantity' | 'value_minor'>): Record<string, number> {
  return { InvoiceCount: sums.invoice_count, Quantity: sums.quantity, Value: amount(sums.value_minor) };
}
