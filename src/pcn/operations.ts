/** Operations of this business area (docs/behaviour.md): payment collection notes (PCN) and their cheques. */
import type { PaymentMethod, PaymentType } from '../db/schema';
import { readOperation, type Operation } from '../operations/types';
import { oneOf, text } from '../operations/parse';
import { checkPcnListScope, pcnDebitNoteList, pcnDetails, pcnInvoiceList, pcnList, readChequeKey, type PcnListQuery } from './pcn-lookups';
import { PAGE_FIELDS, pageRequest } from '../operations/paging';
import { allowedOfficers } from '../users/principal-scope';

const PAYMENT_TYPES: Readonly<Record<string, PaymentType>> = { PDC: 'PDC', CURRENT: 'CURRENT', ADVANCE: 'ADVANCE' };
const PAYMENT_METHODS: Readonly<Record<string, PaymentMethod>> = {
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
  acceptsFiles: false,
  async prepare({ fields }, ctx) {
    const query: PcnListQuery = {
      salesOfficer: text(fields, 'SalesOfficer'),
      customer: text(fields, 'Customer'),
      paymentType: oneOf(fields, 'PaymentType', PAYMENT_TYPES),
      paymentMethod: oneOf(fields, 'PaymentMethod', PAYMENT_METHODS),
      allowed: await allowedOfficers(ctx),
      page: pageRequest(fields, readChequeKey),
      streams: ctx.streams,
    };
    await checkPcnListScope(ctx.db, query);
    return query;
  },
  read: (query, ctx) => pcnList(ctx.db, query),
});

export const getPCNDetails = readOperation({
  name: 'getPCNDetails',
  params: ['PDCID'],
  fields: [],
  acceptsFiles: false,
  prepare: async ({ fields }, ctx) => ({ number: text(fields, 'PDCID'), allowed: await allowedOfficers(ctx) }),
  read: async ({ number, allowed }, ctx) => ({ data: await pcnDetails(ctx.db, number, allowed) }),
});

export const getPCNDebitNotes = readOperation({
  name: 'getPCNDebitNotes',
  params: ['PCNNO'],
  fields: [],
  acceptsFiles: false,
  prepare: async ({ fields }, ctx) => ({ number: text(fields, 'PCNNO'), allowed: await allowedOfficers(ctx) }),
  read: async ({ number, allowed }, ctx) => ({ data: await pcnDebitNoteList(ctx.db, number, allowed) }),
});

export const getPCNInvoices = readOperation({
  name: 'getPCNInvoices',
  params: ['PCNNO'],
  fields: [],
  acceptsFiles: false,
  prepare: async ({ fields }, ctx) => ({ number: text(fields, 'PCNNO'), allowed: await allowedOfficers(ctx) }),
  read: async ({ number, allowed }, ctx) => ({ data: await pcnInvoiceList(ctx.db, number, allowed) }),
});

export const pcnOperations: readonly Operation[] = [getPCNList, getPCNDetails, getPCNDebitNotes, getPCNInvoices];
