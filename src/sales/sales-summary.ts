/**
 * getCustomerSaless (docs/behaviour.md): invoiced sales per customer, from the invoice lines that match
 * the filters. A customer appears only with at least one matching line; InvoiceCount counts the
 * invoices that have one. SalesOfficer filters on the invoice's officer, while the row shows
 * the customer's own officer (who owns the account today).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/money';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { resolveFilters, type ReportFilterInput } from './report-filters';
import { salesPerCustomer, type CustomerSales } from './repository';
import { sortRows } from './sort-rows';
import { forEachInTurns, mapInTurns } from '../operations/turns';
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

/** `allowed`: the authenticated user's bound (principal-scope.ts), customers of those officers only. */
export async function salesSummary(db: Kysely<Database>, input: ReportFilterInput, order: Sort<SalesSummaryField>, allowed?: OfficerBound): Promise<OperationResult> {
  const filters = await resolveFilters(db, input, allowed);
  const records = filters === undefined ? [] : await salesPerCustomer(db, filters, { column: RECORD_COLUMNS[order.field], descending: order.direction === 'desc' });
  const rows = sortRows(await mapInTurns(records, toRow), order, 'CustomerCode');
  return { data: rows, totals: await salesTotals(records) };
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

function toRow(r: CustomerSales): SalesSummaryRow {
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
async function salesTotals(records: CustomerSales[]): Promise<Record<string, number>> {
  let invoices = 0;
  let quantity = 0;
  let value = 0;
  await forEachInTurns(records, (r) => {
    invoices += r.invoice_count;
    quantity += r.quantity;
    value += r.value_minor;
  });
  return { InvoiceCount: invoices, Quantity: quantity, Value: amount(value) };
}
