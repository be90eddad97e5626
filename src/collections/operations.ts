/** Operations of this business area (domain.md). */
import type { Operation } from '../operations/types';

export const getCollectionStatements: Operation = {
  name: 'getCollectionStatements',
  params: ['SalesOfficer', 'FromCustomer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getCollectionStatements is being built');
  },
};

export const getOpeningBalance: Operation = {
  name: 'getOpeningBalance',
  params: ['CustomerIds', 'Month', 'Year'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getOpeningBalance is being built');
  },
};

export const collectionsOperations: readonly Operation[] = [getCollectionStatements, getOpeningBalance];
