/**
 * Orders report rows by one of their own fields (domain.md, "SortBy").
 *
 * The reports aggregate in SQL and order the aggregated rows here: the field is always one of the
 * row's keys (parse.ts `sort` only returns whitelisted names), and ordering in one place means both
 * engines answer in the same order whatever their text collation (SQLite compares bytes, PostgreSQL
 * follows the database locale). Ties are broken by the row key, ascending, so the order is total.
 */
import type { Sort } from '../operations/parse';

type Value = string | number | null;

export function sortRows<R extends Record<F | K, Value>, F extends string, K extends string>(rows: R[], order: Sort<F>, key: K): R[] {
  const sign = order.direction === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => sign * compareValues(a[order.field], b[order.field]) || compareValues(a[key], b[key]));
}

/** Numbers by value, text by code point (as codes are compared everywhere), nulls first. */
function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}
