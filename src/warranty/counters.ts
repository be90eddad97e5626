/**
 * Numbers of the warranty area from the counters table. Every warranty write first takes the
 * change-sequence counter's row lock (lockWarrantyWrites) to commit, so writers run one at a time:
 * change_seq order is commit order (SyncWarrantyReqList), and a write's checks after the lock hold.
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

/** 'WR' + seven digits (schema.ts, Database['warranty_requests'].request_no). */
export function requestNumber(value: number): string {
  return `WR${String(value).padStart(7, '0')}`;
}

/** 'WF' + seven digits (schema.ts, Database['warranty_files'].file_id). */
export function fileId(value: number): string {
  return `WF${String(value).padStart(7, '0')}`;
}
