/**
 * getCollectionStatements (docs/behaviour.md) and its queries: streamed, Totals summed as the rows pass;
 * a page is read whole, keyset-continued on the sort field and the receipt number.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/values';
import type { Direction, Range } from '../operations/parse';
import { storedCustomerCodeOf, storedUserIdOf } from '../operations/master-codes';
import type { OperationResult } from '../operations/types';
import {
  cutPage,
  encodePageToken,
  keyConstant,
  keyDate,
  keyInteger,
  keyText,
  keyTuple,
  type KeyPart,
  type PageRequest,
} from '../operations/paging';
import { rowBatches, StreamedData, streamedResult, type Streams } from '../operations/streamed';

export async function collectionStatements(
  db: Kysely<Database>,
  filter: ReceiptFilter,
  page: PageRequest<ReceiptKey> | undefined,
  streams: Streams | undefined,
): Promise<OperationResult> {
  if (page) return statementPage(db, filter, page);
  return streamedResult(db, streams, (trx, end) => {
    const totals = new Totals();
    const rows = () => rowBatches(trx, receiptsQuery(trx, filter), (r) => totals.add(toRow(r), r));
    return new StreamedData(
      { kind: 'rows', rows },
      () => countReceipts(trx, filter),
      () => totals.result(),
      end,
    );
  });
}

/** One page: PageSize rows after the token's key (one more is read to know whether another follows). */
async function statementPage(
  db: Kysely<Database>,
  filter: ReceiptFilter,
  request: PageRequest<ReceiptKey>,
): Promise<OperationResult> {
  const records = await receiptsQuery(db, filter, request.after)
    .limit(request.size + 1)
    .execute();
  const { rows, next } = cutPage(records, request.size, (r) => receiptKey(r, filter));
  const totals = new Totals();
  const data = rows.map((r) => totals.add(toRow(r), r));
  return { data, totals: totals.result(), nextPageToken: next === null ? null : encodePageToken(next) };
}

/** Reads a token's key back for this sort order; undefined when it is not one. */
export function readReceiptKey(sortBy: ReceiptField, direction: Direction): (key: unknown) => ReceiptKey | undefined {
  const value: KeyPart<string | number> =
    sortBy === 'Amount' ? keyInteger : sortBy === 'ReceiptDate' ? keyDate : keyText;
  return keyTuple<ReceiptKey>(keyConstant(sortBy), keyConstant(direction), value, keyText);
}

/** A receipt as the answer shows it: the row as the query names it, Amount from minor units. */
function toRow(r: ReceiptRecord) {
  return { ...r, Amount: amount(r.Amount) };
}

/** Summed in minor units, converted once, so the total is exactly the sum of the rows. */
class Totals {
  private count = 0;
  private minor = 0;

  add<T>(row: T, record: ReceiptRecord): T {
    this.count += 1;
    this.minor += Number(record.Amount);
    return row;
  }

  result(): Record<string, number> {
    return { Count: this.count, Amount: amount(this.minor) };
  }
}

/** The receipts a list selects, and their order. */
export interface ReceiptFilter {
  /** As typed, any case: the statement finds its stored id (storedUserIdOf); none selects nothing. */
  officer?: string;
  /** The customer as typed, any case, likewise. */
  customer?: string;
  dates: Range<string>;
  /** Only customers owned by these officers (the authenticated user's scope); undefined = all. */
  customerOfficers?: readonly string[];
  sortBy: ReceiptField;
  direction: Direction;
}

export const RECEIPT_FIELDS = [
  'ReceiptNo',
  'ReceiptDate',
  'CustomerCode',
  'CustomerName',
  'PaymentMethod',
  'Reference',
  'Amount',
] as const;
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];

/** SortBy whitelist: result field -> column. Input never reaches ORDER BY except through this map. */
const RECEIPT_SORT_COLUMNS = {
  ReceiptNo: 'receipts.receipt_no',
  ReceiptDate: 'receipts.receipt_date',
  CustomerCode: 'receipts.customer_code',
  CustomerName: 'customers.name',
  PaymentMethod: 'receipts.payment_method',
  Reference: 'receipts.reference',
  Amount: 'receipts.amount',
} as const satisfies Record<ReceiptField, string>;

export type ReceiptRecord = Awaited<ReturnType<ReturnType<typeof receiptsQuery>['execute']>>[number];

/** Where a page of receipts ends: the sort it continues, then the sort field's value and the receipt number of its last row. */
export type ReceiptKey = [sortBy: ReceiptField, direction: Direction, value: string | number, receiptNo: string];

/**
 * The receipts the filter selects, joined to their customer. Without a scope filter the receipts drive the join
 * (a CROSS JOIN with the key condition: SQLite keeps that loop order, PostgreSQL plans it as an inner join), so their
 * date or number index hands rows over in order and a streamed list starts at once, not after a sort of the table.
 */
function filteredReceipts(db: Kysely<Database>, filter: ReceiptFilter) {
  if (filter.customerOfficers === undefined) {
    return db
      .selectFrom('receipts')
      .crossJoin('customers')
      .whereRef('customers.code', '=', 'receipts.customer_code')
      .where((eb) => receiptConditions(eb, filter));
  }
  return db
    .selectFrom('receipts')
    .innerJoin('customers', 'customers.code', 'receipts.customer_code')
    .where('customers.sales_officer_id', 'in', filter.customerOfficers)
    .where((eb) => receiptConditions(eb, filter));
}

function receiptConditions(eb: ExpressionBuilder<Database, 'receipts'>, filter: ReceiptFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.officer !== undefined)
    conditions.push(eb('receipts.sales_officer_id', '=', storedUserIdOf(filter.officer)));
  if (filter.customer !== undefined)
    conditions.push(eb('receipts.customer_code', '=', storedCustomerCodeOf(filter.customer)));
  if (filter.dates.from !== undefined) conditions.push(eb('receipts.receipt_date', '>=', filter.dates.from));
  if (filter.dates.to !== undefined) conditions.push(eb('receipts.receipt_date', '<=', filter.dates.to));
  return eb.and(conditions);
}

/**
 * How many receipts the filter selects (the Count before a streamed list). Without a scope filter
 * the customer join cannot change it (every receipt has its customer: a foreign key), so the
 * receipts are counted alone, on their indexes.
 */
export async function countReceipts(db: Kysely<Database>, filter: ReceiptFilter): Promise<number> {
  const query =
    filter.customerOfficers === undefined
      ? db.selectFrom('receipts').where((eb) => receiptConditions(eb, filter))
      : filteredReceipts(db, filter);
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Receipts with their customer, named as the answer names them, ordered by the chosen field and then
 * the receipt number; with `after`, only those that come after that key in this order (the next page).
 */
export function receiptsQuery(db: Kysely<Database>, filter: ReceiptFilter, after?: ReceiptKey) {
  const { sortBy, direction } = filter;
  const column = RECEIPT_SORT_COLUMNS[sortBy];
  let query = filteredReceipts(db, filter).select([
    'receipts.receipt_no as ReceiptNo',
    'receipts.receipt_date as ReceiptDate',
    'receipts.customer_code as CustomerCode',
    'customers.name as CustomerName',
    'receipts.payment_method as PaymentMethod',
    'receipts.reference as Reference',
    'receipts.amount as Amount',
  ]);
  if (after !== undefined) {
    const [, , value, receiptNo] = after;
    const beyond = direction === 'asc' ? '>' : '<';
    query = query.where((eb) =>
      eb.or([
        eb(eb.ref(column), beyond, value as never),
        eb.and([eb(eb.ref(column), '=', value as never), eb('receipts.receipt_no', beyond, receiptNo)]),
      ]),
    );
  }
  return query.orderBy(column, direction).orderBy('receipts.receipt_no', direction);
}

/** The key a page ending on this receipt continues from. */
export function receiptKey(record: ReceiptRecord, { sortBy, direction }: ReceiptFilter): ReceiptKey {
  return [sortBy, direction, record[sortBy], record.ReceiptNo];
}
