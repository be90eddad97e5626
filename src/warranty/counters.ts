/**
 * Numbers of the warranty area, taken from the counters table inside the writing transaction
 * (schema.ts, CountersTable): request numbers, file ids and the change sequence that orders sync.
 *
 * Every warranty write starts with lockWarrantyWrites: it takes the row lock of the change-sequence
 * counter and holds it to commit. Warranty writers therefore run one after the other, which gives two
 * guarantees at once:
 * - change_seq order is commit order: a writer can take sequence N+1 only after the writer that took N
 *   has committed, so a reader that sees N also sees everything below N (SyncWarrantyReqList relies on
 *   it to deliver every change exactly once);
 * - the checks a write makes after the lock (is this ClientRequestId taken, how many files does the
 *   request hold, what state is it in) cannot be invalidated by a concurrent warranty writer.
 * The change-sequence counter is always the first lock taken, so writers never wait for each other in
 * a cycle. SQLite has one connection and Kysely runs its transactions one at a time; the same code holds.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';

export type CounterName = 'warranty_request_no' | 'warranty_change_seq' | 'warranty_file_id';

/** Takes the change-sequence counter's row lock without consuming a number (held until commit). */
export async function lockWarrantyWrites(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable('counters')
    .set((eb) => ({ value: eb.ref('value') }))
    .where('name', '=', 'warranty_change_seq')
    .execute();
}

/** The next value of a counter: UPDATE ... SET value = value + 1 RETURNING value. */
export async function nextValue(db: Kysely<Database>, name: CounterName): Promise<number> {
  const row = await db
    .updateTable('counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', name)
    .returning('value')
    .executeTakeFirst();
  if (!row) throw new Error(`counter ${name} is missing (the migrations create it)`);
  return Number(row.value);
}

/** 'WR' + seven digits (schema.ts, WarrantyRequestsTable.request_no). */
export function requestNumber(value: number): string {
  return `WR${String(value).padStart(7, '0')}`;
}

/** 'WF' + seven digits (schema.ts, WarrantyFilesTable.file_id). */
export function fileId(value: number): string {
  return `WF${String(value).padStart(7, '0')}`;
}
