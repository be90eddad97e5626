/**
 * Orders report rows by one of their own fields (docs/behaviour.md, "Conventions of every operation").
 *
 * The reports aggregate in SQL and the order is decided here: the field is always one of the
 * row's keys (parse.ts `sort` only returns whitelisted names), and ordering in one place means both
 * engines answer in the same order whatever their text collation (SQLite compares bytes, PostgreSQL
 * follows the database locale). Ties are broken by the row key, ascending, so the order is total.
 *
 * A large report asks SQL for the same order already (repository.ts, SqlOrder): then one pass
 * confirms it and the rows are kept as they are, instead of a sort of tens of thousands of rows on
 * the event loop. Where SQL's order differs in the least (text beyond the Basic Multilingual Plane,
 * a computed field), the rows are sorted here as before, so the answer never depends on it.
 */
import type { Sort } from '../operations/parse';
import { compareValues } from '../operations/values';
import type { WholeRead } from '../db/shaped-read';
import { parsed, wholeData, type JsonRows } from '../operations/json-rows';

type Value = string | number | null;

export function sortRows<R extends Record<F | K, Value>, F extends string, K extends string>(rows: R[], order: Sort<F>, key: K): R[] {
  const sign = order.direction === 'desc' ? -1 : 1;
  const compare = (a: R, b: R) => sign * compareValues(a[order.field], b[order.field]) || compareValues(a[key], b[key]);
  return inOrder(rows, compare) ? rows : [...rows].sort(compare);
}

/**
 * A report's rows read whole in the order asked of SQL (repository.ts, salesRowsWhole and
 * deliveryRowsWhole): as they are when they came in it (wholeData), else parsed and sorted here.
 */
export function sortedWhole<R extends Record<F | K, Value>, F extends string, K extends string>(read: WholeRead, order: Sort<F>, key: K, streams: boolean): JsonRows | R[] {
  return read.ordered ? wholeData<R>(read, streams) : sortRows(parsed<R>(read.chunks), order, key);
}

function inOrder<R>(rows: readonly R[], compare: (a: R, b: R) => number): boolean {
  for (let i = 1; i < rows.length; i++) if (compare(rows[i - 1], rows[i]) > 0) return false;
  return true;
}
