/**
 * getCollectionStatements (docs/behaviour.md): streamed, Totals summed as the rows pass; a page is
 * read whole, keyset-continued on the sort field and the receipt number.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/values';
import type { Direction, Range } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { storedCustomerCode, storedUserId } from '../operations/master-codes';
import { cutPage, encodePageToken, keyConstant, keyDate, keyInteger, keyText, keyTuple, type KeyPart, type PageRequest } from '../operations/paging';
import { rowBatches, StreamedData, streamedResult } from '../operations/streamed';
import { countReceipts, receiptKey, receiptsQuery, type ReceiptField, type ReceiptFilter, type ReceiptKey, type ReceiptRecord } from './repository';
import { assertCustomerInScope, assertOfficerInScope, type OfficerBound } from '../users/principal-scope';

export interface CollectionStatementQuery {
  salesOfficer?: string;
  /** FromCustomer: exactly one customer (the contract has no ToCustomer here). */
  customer?: string;
  dates: Range<string>;
  sortBy: ReceiptField;
  direction: Direction;
  /** The authenticated user's bound; undefined = none. */
  allowed?: OfficerBound;
  /** One page (PageSize/PageToken) instead of the whole list. */
  page?: PageRequest<ReceiptKey>;
  /** The caller takes a streamed answer (OperationContext.streams). */
  streams?: boolean;
}

export async function collectionStatements(db: Kysely<Database>, q: CollectionStatementQuery): Promise<OperationResult> {
  const officerId = q.salesOfficer === undefined ? undefined : await storedUserId(db, q.salesOfficer);
  const customerCode = q.customer === undefined ? undefined : await storedCustomerCode(db, q.customer);
  // A code that names nothing is a read that finds nothing.
  const unknown = (q.salesOfficer !== undefined && officerId === undefined) || (q.customer !== undefined && customerCode === undefined);
  if (officerId !== undefined) assertOfficerInScope(q.allowed, officerId, 'SalesOfficer');
  if (customerCode !== undefined) await assertCustomerInScope(db, q.allowed, customerCode, 'FromCustomer');
  const filter: ReceiptFilter = { officerId, customerCode, fromDate: q.dates.from, toDate: q.dates.to, customerOfficers: q.allowed };
  if (q.page) return page(db, unknown ? undefined : filter, q, q.page);
  if (unknown) return { data: [], totals: new Totals().result() };
  return streamedResult(db, q.streams, (trx, end) => {
    const totals = new Totals();
    const rows = () => rowBatches(trx, receiptsQuery(trx, filter, q.sortBy, q.direction), (r) => totals.add(toRow(r), r));
    return new StreamedData({ kind: 'rows', rows }, () => countReceipts(trx, filter), () => totals.result(), end);
  });
}

/** One page: PageSize rows after the token's key (one more is read to know whether another follows). */
async function page(db: Kysely<Database>, filter: ReceiptFilter | undefined, q: CollectionStatementQuery, request: PageRequest<ReceiptKey>): Promise<OperationResult> {
  const records = filter === undefined ? [] : await receiptsQuery(db, filter, q.sortBy, q.direction, request.after).limit(request.size + 1).execute();
  const { rows, next } = cutPage(records, request.size, (r) => receiptKey(r, q.sortBy));
  const totals = new Totals();
  const data = rows.map((r) => totals.add(toRow(r), r));
  return { data, totals: totals.result(), nextPageToken: next === null ? null : encodePageToken(tokenKey(q, next)) };
}

/** The token names the sort it continues, so a token is refused under another SortBy/SortDirection. */
function tokenKey(q: Pick<CollectionStatementQuery, 'sortBy' | 'direction'>, key: ReceiptKey): unknown {
  return [q.sortBy, q.direction, key.value, key.receiptNo];
}

/** Reads a token's key back for this sort order; undefined when it is not one. */
export function readReceiptKey(sortBy: ReceiptField, direction: Direction): (key: unknown) => ReceiptKey | undefined {
  const value: KeyPart<string | number> = sortBy === 'Amount' ? keyInteger : sortBy === 'ReceiptDate' ? keyDate : keyText;
  const read = keyTuple<[ReceiptField, Direction, string | number, string]>(keyConstant(sortBy), keyConstant(direction), value, keyText);
  return (key) => {
    const parts = read(key);
    return parts && { value: parts[2], receiptNo: parts[3] };
  };
}

function toRow(r: ReceiptRecord) {
  return {
    ReceiptNo: r.receipt_no,
    ReceiptDate: r.receipt_date,
    CustomerCode: r.customer_code,
    CustomerName: r.customer_name,
    PaymentMethod: r.payment_method,
    Reference: r.reference,
    Amount: amount(r.amount),
  };
}

/** Summed in minor units, converted once, so the total is exactly the sum of the rows. */
class Totals {
  private count = 0;
  private minor = 0;

  add<T>(row: T, record: ReceiptRecord): T {
    this.count += 1;
    this.minor += Number(record.amount);
    return row;
  }

  result(): Record<string, number> {
    return { Count: this.count, Amount: amount(this.minor) };
  }
}
