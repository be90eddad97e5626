/**
 * Orders report rows by one of their own fields (docs/behaviour.md, "Conventions of every operation").
 *
 * The reports aggregate in SQL and the order is decided here: the field is always one of the
 * row's keys (parse.ts `sort` only returns whitelisted names), and ordering in one place means both
 * engines answer in the same order whatever their text collation (SQLite compares bytes, PostgreSQL
 * follows the database locale). Ties are broken by the row key, ascending, so the order is total.
 *
 * A company-wide report asks SQL for the same order (repository.ts, SqlOrder) and streams its rows
 * as SQL gives them, like the lists. Where SQL's order can differ from the answer's (text beyond the
 * Basic Multilingual Plane, a computed field), the rows are read whole and sorted here, so the answer
 * never depends on it.
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
