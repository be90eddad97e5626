/** Operations of this business area (domain.md). */
import type { Operation } from '../operations/types';

export const getPCNList: Operation = {
  name: 'getPCNList',
  params: ['SalesOfficer', 'Customer', 'PaymentType', 'PaymentMethod'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getPCNList is being built');
  },
};

export const getPCNDetails: Operation = {
  name: 'getPCNDetails',
  params: ['PDCID'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getPCNDetails is being built');
  },
};

export const getPCNDebitNotes: Operation = {
  name: 'getPCNDebitNotes',
  params: ['PCNNO'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getPCNDebitNotes is being built');
  },
};

export const getPCNInvoices: Operation = {
  name: 'getPCNInvoices',
  params: ['PCNNO'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getPCNInvoices is being built');
  },
};

export const pcnOperations: readonly Operation[] = [getPCNList, getPCNDetails, getPCNDebitNotes, getPCNInvoices];
