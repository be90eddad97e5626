/**
 * `column in (values)` as a bound list. An empty list matches nothing: SQLite reads `in ()` as false,
 * PostgreSQL refuses it as a syntax error, so it is written `1 = 0` instead.
 */
import { sql, type Expression, type SqlBool } from 'kysely';

export function inValues(column: string, values: readonly (string | number)[]): Expression<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...values])})`;
}
