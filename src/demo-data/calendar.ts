/** Dates as whole UTC day numbers (days since 1970-01-01), formatted as the schema stores them. */
export type Day = number;

const MS_PER_DAY = 86_400_000;

/** Parses a strict 'yyyy-MM-dd' date; undefined when it is not a real calendar date. */
export function parseDay(text: string): Day | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return ms / MS_PER_DAY;
}

function dayOf(year: number, month: number, date: number): Day {
  return Date.UTC(year, month - 1, date) / MS_PER_DAY;
}

const formatted = new Map<Day, string>();

/** 'yyyy-MM-dd'; memoised, as every generated row formats a date or two. */
export function formatDay(day: Day): string {
  let text = formatted.get(day);
  if (text === undefined) {
    text = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    formatted.set(day, text);
  }
  return text;
}

/** An ISO UTC timestamp `seconds` into the given day. */
export function timestamp(day: Day, seconds: number): string {
  return new Date(day * MS_PER_DAY + seconds * 1000).toISOString();
}

function isSunday(day: Day): boolean {
  // 1970-01-01 was a Thursday.
  return (day + 4) % 7 === 0;
}

/** The same day, or the Monday after when it falls on a Sunday (offices are closed on Sundays). */
export function workingDayFrom(day: Day): Day {
  return isSunday(day) ? day + 1 : day;
}

export interface Month {
  first: Day;
  /** The month's last day, or the as-of date in the as-of month. */
  last: Day;
  /** Monday to Saturday between first and last. */
  workingDays: Day[];
}

/** The first day of the generated period: the start of the previous fiscal year. */
export function periodStart(asOf: Day, fiscalYearStartMonth: number): Day {
  const d = new Date(asOf * MS_PER_DAY);
  const year = d.getUTCFullYear();
  const fyYear = d.getUTCMonth() + 1 >= fiscalYearStartMonth ? year : year - 1;
  return dayOf(fyYear - 1, fiscalYearStartMonth, 1);
}

/** The calendar months from `start` to `end`, the last one cut at `end`. */
export function monthsBetween(start: Day, end: Day): Month[] {
  const months: Month[] = [];
  let first = start;
  while (first <= end) {
    const d = new Date(first * MS_PER_DAY);
    const next = dayOf(d.getUTCFullYear(), d.getUTCMonth() + 2, 1);
    const last = Math.min(next - 1, end);
    const workingDays: Day[] = [];
    for (let day = first; day <= last; day++) if (!isSunday(day)) workingDays.push(day);
    months.push({ first, last, workingDays });
    first = next;
  }
  return months;
}
