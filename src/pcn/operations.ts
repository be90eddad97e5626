/** Operations of this business area (docs/behaviour.md): payment collection notes (PCN) and their cheques. */
import type { Kysely } from 'kysely';
import type { Database, PaymentMethod, PaymentType } from '../db/schema';
import { readOperation, type Operation, type ResultData } from '../operations/types';
import { code, oneOf } from '../operations/parse';
import {
  CHEQUE,
  checkPcnListScope,
  pcnDebitNoteList,
  pcnDetails,
  pcnInvoiceList,
  pcnList,
  readChequeKey,
  type ChequeFilter,
} from './pcn-lookups';
import { PAGE_FIELDS, pageRequest } from '../operations/paging';
import { allowedOfficers, type OfficerBound } from '../users/principal-scope';
import { field, record, recordType, rows, type ResultType } from '../operations/results';

const PCN_LIST_RESULT = rows(CHEQUE, { pageable: true });
const PCN_DETAILS_RESULT = record(
  recordType('PCNDetails', {
    ...CHEQUE.fields,
    SalesOfficer: field.string,
    InvoiceCount: field.integer,
    AdjustedAmount: field.money,
    DebitNoteCount: field.integer,
    DebitNoteAmount: field.money,
  }),
  { nullable: true },
);
const PCN_DEBIT_NOTES_RESULT = rows(
  recordType('PCNDebitNote', {
    DebitNoteNo: field.string,
    DebitNoteDate: field.date,
    Amount: field.money,
    Reason: field.string,
  }),
);
const PCN_INVOICES_RESULT = rows(
  recordType('PCNInvoice', {
    InvoiceNo: field.string,
    InvoiceDate: field.date,
    InvoiceAmount: field.money,
    AdjustedAmount: field.money,
  }),
);

export const PAYMENT_TYPES: Readonly<Record<string, PaymentType>> = {
  PDC: 'PDC',
  CURRENT: 'CURRENT',
  ADVANCE: 'ADVANCE',
};
export const PAYMENT_METHODS: Readonly<Record<string, PaymentMethod>> = {
  CHEQUE: 'CHEQUE',
  DD: 'DD',
  NEFT: 'NEFT',
  RTGS: 'RTGS',
  UPI: 'UPI',
  CASH: 'CASH',
};

export const getPCNList = readOperation({
  name: 'getPCNList',
  params: ['SalesOfficer', 'Customer', 'PaymentType', 'PaymentMethod'],
  fields: PAGE_FIELDS,
  returns: PCN_LIST_RESULT,
  async prepare({ fields }, ctx) {
    const filter: ChequeFilter = {
      officer: code(fields, 'SalesOfficer'),
      customer: code(fields, 'Customer'),
      paymentType: oneOf(fields, 'PaymentType', PAYMENT_TYPES),
      paymentMethod: oneOf(fields, 'PaymentMethod', PAYMENT_METHODS),
      customerOfficers: await allowedOfficers(ctx),
    };
    await checkPcnListScope(ctx.db, filter);
    return { filter, page: pageRequest(fields, readChequeKey) };
  },
  read: ({ filter, page }, ctx) => pcnList(ctx.db, filter, page, ctx.streams),
});

/** A lookup by one document number, within the caller's scope. */
function numberLookup<N extends string>(
  name: string,
  param: N,
  returns: ResultType,
  find: (db: Kysely<Database>, number: string | undefined, allowed: OfficerBound) => Promise<ResultData>,
) {
  return readOperation({
    name,
    params: [param],
    fields: [],
    returns,
    prepare: async ({ fields }, ctx) => ({ number: code(fields, param), allowed: await allowedOfficers(ctx) }),
    read: async ({ number, allowed }, ctx) => ({ data: await find(ctx.db, number, allowed) }),
  });
}

export const getPCNDetails = numberLookup('getPCNDetails', 'PDCID', PCN_DETAILS_RESULT, pcnDetails);
export const getPCNDebitNotes = numberLookup('getPCNDebitNotes', 'PCNNO', PCN_DEBIT_NOTES_RESULT, pcnDebitNoteList);
export const getPCNInvoices = numberLookup('getPCNInvoices', 'PCNNO', PCN_INVOICES_RESULT, pcnInvoiceList);

export const pcnOperations: readonly Operation[] = [getPCNList, getPCNDetails, getPCNDebitNotes, getPCNInvoices];
