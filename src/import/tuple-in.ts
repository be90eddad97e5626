/**
 * `(a, b) IN ((?, ?), ...)`: the rows whose key (or reference) is one of a batch's. One row-value list
 * rather than an OR of ANDs, which PostgreSQL plans far more slowly for a batch of hundreds. Column
 * names come from the table specs only; the values are bound parameters.
 */
import { sql, type Expression, type SqlBool } from 'kysely';

export type Tuple = readonly (string | number | null)[];

export function tupleIn(columns: readonly string[], tuples: readonly Tuple[]): Expression<SqlBool> {
  const list = (values: Tuple) => sql.join(values.map((v) => sql`${v}`));
  if (columns.length === 1) return sql<SqlBool>`${sql.ref(columns[0])} in (${sql.join(tuples.map((t) => sql`${t[0]}`))})`;
  return sql<SqlBool>`(${sql.join(columns.map((c) => sql.ref(c)))}) in (${sql.join(tuples.map((t) => sql`(${list(t)})`))})`;
}
