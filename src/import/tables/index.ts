/**
 * Every table an import may fill, parents first: a file is loaded only after the files its
 * references point to (docs/import.md, "Files and order").
 */
import type { TableSpec } from '../table-spec';
import { activities, complaints, enquiries } from './field-work';
import { pcn, pcnDebitNotes, pcnInvoices } from './collections';
import {
  customerProfitCenters,
  customers,
  productCategories,
  products,
  profitCenters,
  states,
  users,
  zones,
} from './masters';
import { invoiceLines, invoices, ledgerEntries, orderLines, orders, receipts } from './sales';
import { warrantyRequests } from './warranty-requests';

export const TABLES_IN_LOAD_ORDER: readonly TableSpec[] = [
  zones,
  states,
  profitCenters,
  productCategories,
  products,
  users,
  customers,
  customerProfitCenters,
  orders,
  orderLines,
  invoices,
  invoiceLines,
  receipts,
  ledgerEntries,
  pcn,
  pcnInvoices,
  pcnDebitNotes,
  activities,
  enquiries,
  complaints,
  warrantyRequests,
];
