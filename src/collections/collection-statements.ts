/**
 * getCollectionStatements (docs/behaviour.md): streamed, Totals summed as the rows pass; a page is
 * read whole, keyset-continued on the sort field and the receipt number.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/values';
import type { Direction } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { cutPage, encodePageToken, keyConstant, keyDate, keyInteger, keyText, keyTuple, type KeyPart, type PageRequest } from '../operations/paging';
import { rowBatches, StreamedData, streamedResult } from '../operations/streamed';
import { countReceipts, receiptKey, receiptsQuery, type ReceiptField, type ReceiptFilter, type ReceiptKey, type ReceiptRecord } from './repository';

export async function collectionStatements(db: Kysely<Database>, filter: ReceiptFilter, page: PageRequest<ReceiptKey> | undefined, streams: boolean | undefined): Promise<OperationResult> {
  if (page) return statementPage(db, filter, page);
  return streamedResult(db, streams, (trx, end) => {
    const totals = new Totals();
    const rows = () => rowBatches(trx, receiptsQuery(trx, filter), (r) => totals.add(toRow(r), r));
    return new StreamedData({ kind: 'rows', rows }, () => countReceipts(trx, filter), () => totals.result(), end);
  });
}

/** One page: PageSize rows after the token's key (one more is read to know whether another follows). */
async function statementPage(db: Kysely<Database>, filter: ReceiptFilter, request: PageRequest<ReceiptKey>): Promise<OperationResult> {
  const records = await receiptsQuery(db, filter, request.after).limit(request.size + 1).execute();
  const { rows, next } = cutPage(records, request.size, (r) => receiptKey(r, filter));
  const totals = new Totals();
  const data = rows.map((r) => totals.add(toRow(r), r));
  return { data, totals: totals.result(), nextPageToken: next === null ? null : encodePageToken(next) };
}

/** Reads a token's key back for this sort order; undefined when it is not one. */
export function readReceiptKey(sortBy: ReceiptField, direction: Direction): (key: unknown) => ReceiptKey | undefined {
  const value: KeyPart<string | number> = sortBy === 'Amount' ? keyInteger : sortBy === 'ReceiptDate' ? keyDate : keyText;
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
