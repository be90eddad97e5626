/**
 * A date range as whole calendar years, whole months and single days (docs/summaries.md): the
 * summary tables hold each measure at those three grains, so a range is read as at most a few
 * rows per customer and grain. Dates are 'yyyy-MM-dd'; a missing bound is open.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { PeriodKind } from '../db/schema';
import type { SummarySql } from './engine-sql';

/** Rows of one grain whose period_start lies in [first, last]. */
export interface PeriodSpan {
  kind: PeriodKind;
  first: string;
  last: string;
}

const OPEN_START = '0001-01-01';
const OPEN_END = '9999-12-31';

/** The spans that together cover exactly the days from..to (inclusive). */
export function periodSpans(from: string | undefined, to: string | undefined): PeriodSpan[] {
  let lo = from ?? OPEN_START;
  const hi = to ?? OPEN_END;
  if (lo > hi) return [];
  const spans: PeriodSpan[] = [];
  // Single days up to the first whole month.
  if (!lo.endsWith('-01')) {
    const end = minDate(hi, lastDayOfMonth(lo));
    spans.push({ kind: 'D', first: lo, last: end });
    if (end === hi) return spans;
    lo = nextDay(end);
  }
  // Single days after the last whole month.
  let lastMonth: string | undefined = monthOf(hi);
  if (hi !== lastDayOfMonth(hi)) {
    spans.push({ kind: 'D', first: lastMonth, last: hi });
    lastMonth = lastMonth > lo ? previousMonth(lastMonth) : undefined;
  }
  if (lastMonth === undefined || lastMonth < lo) return spans;
  // Whole months up to the first whole year, and after the last.
  if (!lo.endsWith('-01-01')) {
    const end = minDate(lastMonth, `${lo.slice(0, 4)}-12-01`);
    spans.push({ kind: 'M', first: lo, last: end });
    if (end === lastMonth) return spans;
    lo = `${String(Number(lo.slice(0, 4)) + 1).padStart(4, '0')}-01-01`;
  }
  let lastYear: string | undefined = `${lastMonth.slice(0, 4)}-01-01`;
  if (!lastMonth.endsWith('-12-01')) {
    spans.push({ kind: 'M', first: lastYear, last: lastMonth });
    lastYear = lastYear > lo ? `${String(Number(lastYear.slice(0, 4)) - 1).padStart(4, '0')}-01-01` : undefined;
  }
  if (lastYear !== undefined && lastYear >= lo) spans.push({ kind: 'Y', first: lo, last: lastYear });
  return spans;
}

/** The condition selecting the rows of `spans` on a table with period_kind and period_start. */
export function inSpans(spans: readonly PeriodSpan[], s: SummarySql, alias?: string): Expression<SqlBool> {
  if (spans.length === 0) return sql<SqlBool>`1 = 0`;
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  const parts = spans.map(
    (p) =>
      sql<SqlBool>`(${col('period_kind')} = ${p.kind} and ${col('period_start')} between ${s.date(p.first)} and ${s.date(p.last)})`,
  );
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}

function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function lastDayOfMonth(day: string): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const last = m === 2 && leap ? 29 : MONTH_DAYS[m - 1];
  return `${day.slice(0, 7)}-${String(last).padStart(2, '0')}`;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The 1st of the month before the month starting `month` (a 1st). */
export function previousMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 1
    ? `${String(y - 1).padStart(4, '0')}-12-01`
    : `${month.slice(0, 5)}${String(m - 1).padStart(2, '0')}-01`;
}
