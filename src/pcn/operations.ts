/** Operations of this business area (domain.md): payment collection notes (PCN) and their cheques. */
import type { PaymentMethod, PaymentType } from '../db/schema';
import type { Operation } from '../operations/types';
import { oneOf, text } from '../operations/parse';
import { pcnDebitNoteList, pcnDetails, pcnInvoiceList, pcnList, readChequeKey } from './pcn-lookups';
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

export const getPCNList: Operation = {
  name: 'getPCNList',
  params: ['SalesOfficer', 'Customer', 'PaymentType', 'PaymentMethod'],
  fields: PAGE_FIELDS,
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    return pcnList(ctx.db, {
      salesOfficer: text(fields, 'SalesOfficer'),
      customer: text(fields, 'Customer'),
      paymentType: oneOf(fields, 'PaymentType', PAYMENT_TYPES),
      paymentMethod: oneOf(fields, 'PaymentMethod', PAYMENT_METHODS),
      allowed: await allowedOfficers(ctx),
      page: pageRequest(fields, readChequeKey),
      streams: ctx.streams,
    });
  },
};

export const getPCNDetails: Operation = {
  name: 'getPCNDetails',
  params: ['PDCID'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    return { data: await pcnDetails(ctx.db, text(fields, 'PDCID'), await allowedOfficers(ctx)) };
  },
};

export const getPCNDebitNotes: Operation = {
  name: 'getPCNDebitNotes',
  params: ['PCNNO'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    return { data: await pcnDebitNoteList(ctx.db, text(fields, 'PCNNO'), await allowedOfficers(ctx)) };
  },
};

export const getPCNInvoices: Operation = {
  name: 'getPCNInvoices',
  params: ['PCNNO'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    return { data: await pcnInvoiceList(ctx.db, text(fields, 'PCNNO'), await allowedOfficers(ctx)) };
  },
};

export const pcnOperations: readonly Operation[] = [getPCNList, getPCNDetails, getPCNDebitNotes, getPCNInvoices];
