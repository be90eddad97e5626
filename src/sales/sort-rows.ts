/**
 * Orders report rows by one of their fields here, ties by the row key, so both engines answer in the
 * same order whatever their collation. Where SQL's order is the answer's, a report streams as SQL
 * gives its rows (repository.ts, SqlOrder).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Sort } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { drain, streamedResult, type StreamedData } from '../operations/streamed';
import { compareValues } from '../operations/values';

type Value = string | number | null;

export function sortRows<R extends Record<F | K, Value>, F extends string, K extends string>(rows: R[], order: Sort<F>, key: K): R[] {
  const sign = order.direction === 'desc' ? -1 : 1;
  const compare = (a: R, b: R) => sign * compareValues(a[order.field], b[order.field]) || compareValues(a[key], b[key]);
  return inOrder(rows, compare) ? rows : [...rows].sort(compare);
}

/**
 * A report's rows built in a snapshot by `build` (streamed.ts, streamedResult) in the order asked of
 * SQL: streamed when the caller takes streams and `inSqlOrder` says SQL's order is the answer's, else
 * read whole, and sorted here when it is not.
 */
export async function sortedReport<R extends Record<F | K, Value>, F extends string, K extends string>(
  db: Kysely<Database>,
  streams: boolean | undefined,
  order: Sort<F>,
  key: K,
  inSqlOrder: (trx: Kysely<Database>) => Promise<boolean>,
  build: (trx: Kysely<Database>, end: () => Promise<void>) => Promise<StreamedData>,
): Promise<OperationResult> {
  let ordered = false;
  const result = await streamedResult(db, true, async (trx, end) => {
    ordered = await inSqlOrder(trx);
    return build(trx, end);
  });
  if (streams && ordered) return result;
  const whole = await drain(result.data as StreamedData);
  return ordered ? whole : { ...whole, data: sortRows(whole.data as R[], order, key) };
}

function inOrder<R>(rows: readonly R[], compare: (a: R, b: R) => number): boolean {
  for (let i = 1; i < rows.length; i++) if (compare(rows[i - 1], rows[i]) > 0) return false;
  return true;
}
