/**
 * Sales documents (docs/architecture.md, "The data"): orders, invoices, their lines, receipts and the ledger.
 * Each keeps the summary data of the customers it touches in step (summary-upkeep.ts).
 */
import {
  AMOUNT,
  CODE,
  DATE,
  POSITIVE_INTEGER,
  QUANTITY,
  SHORT,
  SIGNED_AMOUNT,
  enumOf,
  optional,
  PARTY,
  ref,
  required,
  type TableSpec,
} from '../table-spec';

export const PAYMENT_METHODS = ['CHEQUE', 'DD', 'NEFT', 'RTGS', 'UPI', 'CASH'] as const;

export const orders: TableSpec = {
  table: 'orders',
  key: ['order_no'],
  hooks: (summaries) => summaries.hooks('orders', ['order_no']),
  columns: [
    required('order_no', CODE),
    required('order_date', DATE),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('profit_center_code', CODE),
    required('status', enumOf(['OPEN', 'CLOSED', 'CANCELLED'])),
  ],
  references: [...PARTY, ref('profit_center_code', 'profit_centers', 'code')],
};

const lineColumns = (document: string) => [
  required(document, CODE),
  required('line_no', POSITIVE_INTEGER),
  required('product_code', CODE),
  required('category_code', CODE),
  required('quantity', QUANTITY),
  required('value', SIGNED_AMOUNT),
];

const productRefs = [ref('product_code', 'products', 'code'), ref('category_code', 'product_categories', 'code')];

export const orderLines: TableSpec = {
  table: 'order_lines',
  key: ['order_no', 'line_no'],
  hooks: (summaries) => summaries.hooks('order_lines', ['order_no', 'line_no']),
  columns: lineColumns('order_no'),
  references: [ref('order_no', 'orders', 'order_no'), ...productRefs],
};

export const invoices: TableSpec = {
  table: 'invoices',
  key: ['invoice_no'],
  hooks: (summaries) => summaries.hooks('invoices', ['invoice_no']),
  columns: [
    required('invoice_no', CODE),
    required('invoice_date', DATE),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('profit_center_code', CODE),
    optional('order_no', CODE),
    required('amount', SIGNED_AMOUNT),
  ],
  references: [...PARTY, ref('profit_center_code', 'profit_centers', 'code'), ref('order_no', 'orders', 'order_no')],
};

/** An invoice line may name the order line it delivers: both order_no and order_line_no, or neither. */
export const invoiceLines: TableSpec = {
  table: 'invoice_lines',
  key: ['invoice_no', 'line_no'],
  hooks: (summaries) => summaries.hooks('invoice_lines', ['invoice_no', 'line_no']),
  columns: [...lineColumns('invoice_no'), optional('order_no', CODE), optional('order_line_no', POSITIVE_INTEGER)],
  references: [
    ref('invoice_no', 'invoices', 'invoice_no'),
    ...productRefs,
    ref(['order_no', 'order_line_no'], 'order_lines', ['order_no', 'line_no']),
  ],
  check: (row) => {
    if (row.order_no !== null && row.order_line_no === null)
      return { column: 'order_line_no', reason: 'is required when order_no is given' };
    if (row.order_no === null && row.order_line_no !== null)
      return { column: 'order_no', reason: 'is required when order_line_no is given' };
    return undefined;
  },
};

export const receipts: TableSpec = {
  table: 'receipts',
  key: ['receipt_no'],
  hooks: (summaries) => summaries.hooks('receipts', ['receipt_no']),
  columns: [
    required('receipt_no', CODE),
    required('receipt_date', DATE),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('payment_method', enumOf(PAYMENT_METHODS)),
    optional('reference', SHORT, ''),
    required('amount', AMOUNT),
  ],
  references: PARTY,
};

/** Balances come only from the ledger (docs/behaviour.md); one entry per document and customer. */
export const ledgerEntries: TableSpec = {
  table: 'ledger_entries',
  key: ['doc_type', 'doc_no', 'customer_code'],
  hooks: (summaries) => summaries.hooks('ledger_entries', ['doc_type', 'doc_no', 'customer_code']),
  columns: [
    required('customer_code', CODE),
    required('entry_date', DATE),
    required('doc_type', enumOf(['INVOICE', 'RECEIPT', 'DEBIT_NOTE', 'CREDIT_NOTE', 'OPENING'])),
    required('doc_no', CODE),
    optional('debit', AMOUNT, 0),
    optional('credit', AMOUNT, 0),
  ],
  references: [ref('customer_code', 'customers', 'code')],
};
