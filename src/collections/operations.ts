/** Operations of this business area (docs/behaviour.md): receipts and ledger balances. */
import { readOperation, type Operation } from '../operations/types';
import { code, dateRange, list, month, sort, year, type Sorting } from '../operations/parse';
import {
  collectionStatements,
  readReceiptKey,
  RECEIPT_FIELDS,
  type ReceiptField,
  type ReceiptFilter,
  type ReceiptRecord,
} from './collection-statements';
import { PAGE_FIELDS, pageRequest } from '../operations/paging';
import { firstCustomerOutside, openingBalances, type OpeningBalanceQuery } from './balance-reads';
import {
  allowedOfficers,
  assertNamedCustomerInScope,
  assertNamedOfficerInScope,
  outsideScope,
} from '../users/principal-scope';
import { field, recordType, rows, type FieldType } from '../operations/results';

const COLLECTION_STATEMENTS_RESULT = rows(
  recordType('CollectionStatement', {
    ReceiptNo: field.string,
    ReceiptDate: field.date,
    CustomerCode: field.string,
    CustomerName: field.string,
    PaymentMethod: field.string,
    Reference: field.string,
    Amount: field.money,
  } satisfies Record<keyof ReceiptRecord, FieldType>),
  { totals: recordType('CollectionStatementTotals', { Count: field.integer, Amount: field.money }), pageable: true },
);

const OPENING_BALANCE_RESULT = rows(
  recordType('OpeningBalance', {
    CustomerCode: field.string,
    CustomerName: field.string,
    Month: field.integer,
    Year: field.integer,
    OpeningBalance: field.money,
    /** Dr or Cr. */
    BalanceType: field.string,
  }),
);

const RECEIPT_SORTING: Sorting<ReceiptField> = { fields: RECEIPT_FIELDS, fallback: 'ReceiptDate' };

export const getCollectionStatements = readOperation({
  name: 'getCollectionStatements',
  params: ['SalesOfficer', 'FromCustomer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection'],
  fields: PAGE_FIELDS,
  returns: COLLECTION_STATEMENTS_RESULT,
  sorting: RECEIPT_SORTING,
  async prepare({ fields }, ctx) {
    const { db, settings } = ctx;
    const { field, direction } = sort(fields, RECEIPT_SORTING);
    const filter: ReceiptFilter = {
      officer: code(fields, 'SalesOfficer'),
      customer: code(fields, 'FromCustomer'),
      dates: dateRange(fields, 'FromDate', 'ToDate', settings.dateOrder),
      customerOfficers: await allowedOfficers(ctx),
      sortBy: field,
      direction,
    };
    const page = pageRequest(fields, readReceiptKey(field, direction));
    await assertNamedOfficerInScope(db, filter.customerOfficers, filter.officer, 'SalesOfficer');
    await assertNamedCustomerInScope(db, filter.customerOfficers, filter.customer, 'FromCustomer');
    return { filter, page };
  },
  read: ({ filter, page }, ctx) => collectionStatements(ctx.db, filter, page, ctx.streams),
});

export const getOpeningBalance = readOperation({
  name: 'getOpeningBalance',
  params: ['CustomerIds', 'Month', 'Year'],
  fields: [],
  returns: OPENING_BALANCE_RESULT,
  async prepare({ fields }, ctx) {
    const now = ctx.clock.now();
    const query: OpeningBalanceQuery = {
      customerCodes: list(fields, 'CustomerIds'),
      month: month(fields, 'Month', now),
      year: year(fields, 'Year', now),
      allowed: await allowedOfficers(ctx),
    };
    if (query.allowed !== undefined && query.customerCodes !== undefined) {
      const outside = await firstCustomerOutside(ctx.db, query.customerCodes, query.allowed);
      if (outside !== undefined) throw outsideScope('CustomerIds', `customer ${outside}`);
    }
    return query;
  },
  read: (query, ctx) => openingBalances(ctx.db, query, ctx.streams),
});

export const collectionsOperations: readonly Operation[] = [getCollectionStatements, getOpeningBalance];
