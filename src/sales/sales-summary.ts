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
import { inOrder, salesPerCustomerQuery, sqlOrderHolds, type CustomerSalesSums, type SalesMeasure } from './repository';
import { sortedReport } from './sort-rows';
import type { OfficerBound } from '../users/principal-scope';

export const SALES_SUMMARY_FIELDS = ['CustomerCode', 'CustomerName', 'StateCode', 'ZoneCode', 'SalesOfficer', 'InvoiceCount', 'Quantity', 'Value'] as const;
export type SalesSummaryField = (typeof SALES_SUMMARY_FIELDS)[number];

/** A company-wide report is a row per customer, streamed from a cursor as the lists are (sortedReport). */
export async function salesSummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<SalesSummaryField>, allowed?: OfficerBound, streams = false): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  if (filters === undefined) return { data: [], totals: salesTotals({ InvoiceCount: 0, Quantity: 0, Value: 0 }) };
  const sqlOrder = { column: order.field, descending: order.direction === 'desc' };
  return sortedReport<ReturnType<typeof toRow>, SalesSummaryField, 'CustomerCode'>(db, streams, order, 'CustomerCode', (trx) => sqlOrderHolds(trx, sqlOrder.column), async (trx, end) => {
    const query = await salesPerCustomerQuery(trx, filters);
    const sums = { InvoiceCount: 0, Quantity: 0, Value: 0 };
    const rows = () =>
      rowBatches(trx, query && inOrder(trx, query, sqlOrder), (r: CustomerSalesSums) => {
        const row = toRow(r);
        sums.InvoiceCount += row.InvoiceCount;
        sums.Quantity += row.Quantity;
        sums.Value += plainNumber(r.Value);
        return row;
      });
    return new StreamedData({ kind: 'rows', rows }, () => countRows(trx, query), () => salesTotals(sums), end);
  });
}

/** The answer's row as the query names it: counts as numbers, the value from minor units. */
function toRow(r: CustomerSalesSums) {
  return { ...r, InvoiceCount: plainNumber(r.InvoiceCount), Quantity: plainNumber(r.Quantity), Value: amount(r.Value) };
}

/** Totals are the sums of the rows (money summed in minor units, then converted once). */
function salesTotals(sums: Record<SalesMeasure, number>): Record<string, number> {
  return { ...sums, Value: amount(sums.Value) };
}
