/** Payment collection notes (docs/architecture.md, "The data"): one row per cheque, the invoices and debit notes of a PCN. */
import {
  AMOUNT,
  CODE,
  DATE,
  LONG,
  NAME,
  SHORT,
  enumOf,
  optional,
  PARTY,
  ref,
  required,
  type TableSpec,
} from '../table-spec';
import { PAYMENT_METHODS } from './sales';

export const pcn: TableSpec = {
  table: 'pcn',
  key: ['pdc_id'],
  columns: [
    required('pdc_id', CODE),
    required('pcn_no', CODE),
    required('pcn_date', DATE),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('payment_type', enumOf(['PDC', 'CURRENT', 'ADVANCE'])),
    required('payment_method', enumOf(PAYMENT_METHODS)),
    optional('cheque_no', SHORT),
    optional('cheque_date', DATE),
    optional('bank_name', NAME),
    required('amount', AMOUNT),
    required('status', enumOf(['RECEIVED', 'DEPOSITED', 'CLEARED', 'BOUNCED', 'CANCELLED'])),
  ],
  references: PARTY,
};

/** pcn_no is not a key of pcn (one PCN holds several cheques), so the database cannot check it; the import does. */
const ofPcn = { ...ref('pcn_no', 'pcn', 'pcn_no'), unenforced: true };

export const pcnInvoices: TableSpec = {
  table: 'pcn_invoices',
  key: ['pcn_no', 'invoice_no'],
  columns: [required('pcn_no', CODE), required('invoice_no', CODE), required('adjusted_amount', AMOUNT)],
  references: [ofPcn, ref('invoice_no', 'invoices', 'invoice_no')],
};

export const pcnDebitNotes: TableSpec = {
  table: 'pcn_debit_notes',
  key: ['debit_note_no'],
  columns: [
    required('debit_note_no', CODE),
    required('pcn_no', CODE),
    required('note_date', DATE),
    required('amount', AMOUNT),
    required('reason', LONG),
  ],
  references: [ofPcn],
};
