/**
 * The few SQL spellings the summaries need that SQLite and PostgreSQL write differently. Dates are
 * 'yyyy-MM-dd' text in SQLite and `date` in PostgreSQL (src/db/schema.ts); everything else in the
 * summary queries is common SQL.
 */
import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';

export interface SummarySql {
  /** The first day of the month of a date expression, as a date. */
  monthStart(date: RawBuilder<unknown>): RawBuilder<string>;
  /** The first day of the year of a date expression, as a date. */
  yearStart(date: RawBuilder<unknown>): RawBuilder<string>;
  /** A 'yyyy-MM-dd' value bound as a date. */
  date(value: string): RawBuilder<string>;
  /** Days from `from` to `to` (both date expressions), as an integer. */
  daysBetween(from: RawBuilder<unknown>, to: RawBuilder<unknown>): RawBuilder<number>;
  /** The distinct values of a text column in a group, sorted, joined as ',A,B,'. */
  sortedSet(column: RawBuilder<unknown>): RawBuilder<string>;
  /** A text expression compared by its bytes (code point order) in ORDER BY, whatever the locale. */
  byCodePoint(text: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Whether a text expression holds a character beyond the Basic Multilingual Plane. */
  beyondBmp(text: RawBuilder<unknown>): RawBuilder<SqlBool>;
  /**
   * A column to GROUP BY that no index may serve: SQLite would read a whole summary table in its
   * customer index's order to spare a sort, slower than picking the range's rows and sorting them.
   */
  groupKey(column: RawBuilder<unknown>): RawBuilder<unknown>;
}

const sqlite: SummarySql = {
  monthStart: (d) => sql<string>`substr(${d}, 1, 8) || '01'`,
  yearStart: (d) => sql<string>`substr(${d}, 1, 5) || '01-01'`,
  date: (v) => sql<string>`${v}`,
  daysBetween: (from, to) => sql<number>`cast(julianday(${to}) - julianday(${from}) as integer)`,
  sortedSet: (c) => sql<string>`',' || group_concat(distinct ${c} order by ${c}) || ','`,
  byCodePoint: (t) => t,
  beyondBmp: (t) => sql<SqlBool>`${t} glob ${'*[\u{10000}-\u{10FFFF}]*'}`,
  groupKey: (c) => sql`+${c}`,
};

// date_trunc of a date goes through timestamptz, converted in and out of the session's time zone
// row by row: through timestamp the same day comes out without the conversions.
const postgres: SummarySql = {
  monthStart: (d) => sql<string>`cast(date_trunc('month', cast(${d} as timestamp)) as date)`,
  yearStart: (d) => sql<string>`cast(date_trunc('year', cast(${d} as timestamp)) as date)`,
  date: (v) => sql<string>`cast(${v} as date)`,
  daysBetween: (from, to) => sql<number>`(${to} - ${from})`,
  sortedSet: (c) => sql<string>`',' || string_agg(distinct ${c}, ',' order by ${c}) || ','`,
  byCodePoint: (t) => sql`${t} collate "C"`,
  beyondBmp: (t) => sql<SqlBool>`${t} ~ ${'[\u{10000}-\u{10FFFF}]'}`,
  groupKey: (c) => c,
};

/** The spellings for the engine behind `db` (a Kysely instance or transaction). */
export function summarySql<DB>(db: Kysely<DB>): SummarySql {
  return isPostgres(db) ? postgres : sqlite;
}

/** Whether `db` (a Kysely instance or transaction) runs on PostgreSQL. */
export function isPostgres(db: Pick<Kysely<unknown>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
