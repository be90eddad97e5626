/**
 * Warranty requests keep their legacy request_no. Two numbers come from the counters table
 * (schema.ts, src/warranty/counters.ts):
 * - change_seq, the row's place in the sync order: a new row, or a stored row whose content the file
 *   changes, takes the next values of 'warranty_change_seq' (so SyncWarrantyReqList delivers it once);
 *   a row the file leaves as it is keeps its number, so a second import of the same file changes nothing;
 * - 'warranty_request_no' is moved past the highest WR number imported, so the requests the server
 *   creates afterwards never collide with imported ones.
 * The file's transaction takes the warranty writers' lock first, as every warranty write does.
 */
import { sql, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { lockWarrantyWrites } from '../../warranty/counters';
import { STAGING } from '../staging';
import {
  CODE,
  DATE,
  POSITIVE_INTEGER,
  LONG,
  NAME,
  SHORT,
  TIMESTAMP,
  enumOf,
  optional,
  PARTY,
  ref,
  required,
  type PendingRow,
  type TableSpec,
  type WriteHooks,
} from '../table-spec';

export const warrantyRequests: TableSpec = {
  table: 'warranty_requests',
  key: ['request_no'],
  columns: [
    required('request_no', CODE),
    optional('client_request_id', SHORT),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('product_code', CODE),
    required('serial_no', SHORT),
    optional('invoice_no', CODE),
    optional('purchase_date', DATE),
    required('complaint', LONG),
    required('status', enumOf(['SUBMITTED', 'DISPATCHED', 'RECEIVED', 'APPROVED', 'REJECTED', 'CLOSED'])),
    optional('transporter', NAME),
    optional('lr_no', SHORT),
    optional('lr_date', DATE),
    optional('vehicle_no', SHORT),
    required('created_at', TIMESTAMP),
    optional('updated_at', TIMESTAMP, (row) => row.created_at),
    // Absent: 1 for a new request, the stored version (plus one when the file changes the row) otherwise.
    optional('version', POSITIVE_INTEGER),
  ],
  references: [...PARTY, ref('product_code', 'products', 'code'), ref('invoice_no', 'invoices', 'invoice_no')],
  // A ClientRequestId is the officer's own (docs/behaviour.md): unique per officer, as in the table.
  unique: [{ column: 'client_request_id', within: 'sales_officer_id' }],
  assigned: ['change_seq'],
  hooks: warrantyNumbers,
};

const WR_NUMBER = /^WR(\d{1,15})$/i;

function warrantyNumbers(): WriteHooks {
  let highest = 0;
  return {
    assignedColumns: ['change_seq', 'version'],
    start: (trx) => lockWarrantyWrites(trx),
    async beforeWrite(trx, rows, compared) {
      const stored = await storedRequests(trx);
      const changed = rows.filter((row) => settleUnchanged(row, stored.get(String(row.values.request_no)), compared));
      let next = await takeChangeSeqs(trx, changed.length);
      for (const row of changed) row.values.change_seq = next++;
      for (const row of rows) {
        const m = String(row.values.request_no).match(WR_NUMBER);
        if (m) highest = Math.max(highest, Number(m[1]));
      }
    },
    async afterFile(trx) {
      if (highest === 0) return;
      await trx
        .updateTable('counters')
        .set({ value: highest })
        .where('name', '=', 'warranty_request_no')
        .where('value', '<', highest)
        .execute();
    },
  };
}

type StoredRequest = Record<string, string | number | null>;

/** The stored requests that the staged rows (staging.ts) update, by request_no. */
async function storedRequests(trx: Transaction<Database>): Promise<Map<string, StoredRequest>> {
  const rows = await trx
    .selectFrom('warranty_requests')
    .selectAll()
    .where(sql<SqlBool>`request_no in (select request_no from ${sql.table(STAGING)})`)
    .execute();
  return new Map(rows.map((r) => [r.request_no, r as unknown as StoredRequest]));
}

/**
 * Fills version (and change_seq when nothing changes) from the stored row; true when the row is new
 * or the file changes one of the `compared` columns, i.e. when it needs a new change_seq.
 */
function settleUnchanged(row: PendingRow, stored: StoredRequest | undefined, compared: string[]): boolean {
  if (!stored) {
    row.values.version ??= 1;
    return true;
  }
  const same = compared.every((c) =>
    c === 'version' && row.values.version === null ? true : normalise(row.values[c]) === normalise(stored[c]),
  );
  if (same) {
    row.values.version ??= Number(stored.version);
    row.values.change_seq = Number(stored.change_seq);
    return false;
  }
  row.values.version ??= Number(stored.version) + 1;
  return true;
}

function normalise(value: string | number | null | undefined): string | number | null {
  return value === undefined ? null : value;
}

/** n consecutive values of the change-sequence counter; returns the first. */
async function takeChangeSeqs(trx: Transaction<Database>, n: number): Promise<number> {
  if (n === 0) return 0;
  const row = await trx
    .updateTable('counters')
    .set({ value: sql<number>`value + ${n}` })
    .where('name', '=', 'warranty_change_seq')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value) - n + 1;
}
