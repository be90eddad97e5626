/** Operations of this business area (domain.md): receipts and ledger balances. */
import type { Operation } from '../operations/types';
import { dateRange, list, month, sort, text, year } from '../operations/parse';
import { collectionStatements, readReceiptKey } from './collection-statements';
import { PAGE_FIELDS, pageRequest } from '../operations/paging';
import { openingBalances } from './opening-balance';
import { RECEIPT_FIELDS } from './repository';
import { allowedOfficers } from '../users/principal-scope';

export const getCollectionStatements: Operation = {
  name: 'getCollectionStatements',
  params: ['SalesOfficer', 'FromCustomer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection'],
  fields: PAGE_FIELDS,
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    const { db, settings } = ctx;
    const { field, direction } = sort(fields, RECEIPT_FIELDS, 'ReceiptDate');
    return collectionStatements(db, {
      salesOfficer: text(fields, 'SalesOfficer'),
      customer: text(fields, 'FromCustomer'),
      dates: dateRange(fields, 'FromDate', 'ToDate', settings.dateOrder),
      sortBy: field,
      direction,
      allowed: await allowedOfficers(ctx),
      page: pageRequest(fields, readReceiptKey(field, direction)),
      streams: ctx.streams,
    });
  },
};

export const getOpeningBalance: Operation = {
  name: 'getOpeningBalance',
  params: ['CustomerIds', 'Month', 'Year'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    const now = ctx.clock.now();
    const data = await openingBalances(ctx.db, {
      customerCodes: list(fields, 'CustomerIds'),
      month: month(fields, 'Month', now),
      year: year(fields, 'Year', now),
      allowed: await allowedOfficers(ctx),
    });
    return { data };
  },
};

export const collectionsOperations: readonly Operation[] = [getCollectionStatements, getOpeningBalance];
