/**
 * Parameter conventions shared by every operation (docs/behaviour.md, "Conventions of every operation"):
 * empty or missing is the default; a value not understood is INVALID_PARAMETER, never guessed at.
 */
import type { DateOrder } from '../config';
import { invalid, missing } from '../errors';

/**
 * The named values of a request: exactly the names the operation declared. Readers take the name as
 * `NoInfer<N>`, so an undeclared name (a typo) does not compile.
 */
export type Fields<N extends string = string> = { readonly [K in N]: string | undefined };

/** The trimmed value, or undefined when missing or blank. */
export function text<N extends string>(fields: Fields<N>, name: NoInfer<N>): string | undefined {
  const value = fields[name]?.trim();
  return value ? value : undefined;
}

/** A free-text field with a length bound (so nothing unbounded reaches the database). */
export function boundedText<N extends string>(
  fields: Fields<N>,
  name: NoInfer<N>,
  maxLength: number,
): string | undefined {
  const value = text(fields, name);
  if (value !== undefined && value.length > maxLength) {
    throw invalid(name, `is ${value.length} characters long; at most ${maxLength} are accepted`);
  }
  return value;
}

/** A field a write operation cannot do without, within its length bound when it has one. */
export function required<N extends string>(
  fields: Fields<N>,
  name: NoInfer<N>,
  maxLength = Number.POSITIVE_INFINITY,
): string {
  const value = boundedText(fields, name, maxLength);
  if (value === undefined) throw missing(name);
  return value;
}

/** The longest code or document number, and username, so no request makes the server hold a long value. */
export const MAX_CODE_LENGTH = 50;
const MAX_USERNAME_LENGTH = 100;

/** A code or document number: trimmed, at most MAX_CODE_LENGTH characters. */
export function code<N extends string>(fields: Fields<N>, name: NoInfer<N>): string | undefined {
  return boundedText(fields, name, MAX_CODE_LENGTH);
}

/** A user's id or username: trimmed, at most MAX_USERNAME_LENGTH characters. */
export function user<N extends string>(fields: Fields<N>, name: NoInfer<N>): string | undefined {
  return boundedText(fields, name, MAX_USERNAME_LENGTH);
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The forms a date is accepted in under DATE_ORDER, as the refusals and the help pages name them. */
export function dateForms(order: DateOrder): string {
  return `yyyy-MM-dd, ${order === 'MDY' ? 'MM/dd/yyyy' : 'dd/MM/yyyy'}, dd-MM-yyyy, dd.MM.yyyy, dd-MMM-yyyy or dd MMM yyyy`;
}

/** A date in an accepted form as yyyy-MM-dd (a time is ignored); slash dates follow DATE_ORDER. */
export function parseDate(value: string, field: string, order: DateOrder = 'DMY'): string {
  const v = value.trim();
  const formats = dateForms(order);
  let m: RegExpMatchArray | null;
  let y: number, mo: number, d: number;
  if (
    (m = v.match(/^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/))
  ) {
    [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  } else if ((m = v.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/))) {
    [d, mo, y] =
      order === 'MDY' ? [Number(m[2]), Number(m[1]), Number(m[3])] : [Number(m[1]), Number(m[2]), Number(m[3])];
  } else if ((m = v.match(/^(\d{1,2})[-.](\d{1,2})[-.](\d{4})$/))) {
    [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  } else if ((m = v.match(/^(\d{1,2})[- ]([A-Za-z]{3,9})[- ](\d{4})$/))) {
    const month = monthFromName(m[2]);
    if (month === undefined) throw invalid(field, `'${value}' is not a date (use ${formats})`);
    [d, mo, y] = [Number(m[1]), month, Number(m[3])];
  } else {
    throw invalid(field, `'${value}' is not a date (use ${formats})`);
  }
  if (!isRealDate(y, mo, d)) throw invalid(field, `'${value}' is not a date (use ${formats})`);
  return isoDate(y, mo, d);
}

export function optionalDate<N extends string>(
  fields: Fields<N>,
  name: NoInfer<N>,
  order: DateOrder,
): string | undefined {
  const value = text(fields, name);
  return value === undefined ? undefined : parseDate(value, name, order);
}

/** Whether a text is a date as the database gives it (yyyy-MM-dd) and exists in the calendar. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** Day 0 of the next month is the last day of this one. */
function isRealDate(y: number, mo: number, d: number): boolean {
  return y >= 1900 && y <= 9999 && mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

export function isoDate(y: number, mo: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The UTC calendar date of an instant, yyyy-MM-dd. */
export function dateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

function monthFromName(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = MONTHS.findIndex((m) => m === lower || (lower.length === 3 && m.startsWith(lower)));
  return index === -1 ? undefined : index + 1;
}

export interface Range<T> {
  from?: T;
  to?: T;
}

/** From/To pairs: From alone is exactly that value, both an inclusive range, From after To an error. */
export function range<T extends string>(
  fromName: string,
  from: T | undefined,
  toName: string,
  to: T | undefined,
  compare = (a: T, b: T) => a.localeCompare(b),
): Range<T> {
  if (from !== undefined && to === undefined) return { from, to: from };
  if (from !== undefined && to !== undefined && compare(from, to) > 0) {
    throw invalid(fromName, `'${from}' is after ${toName} '${to}'`);
  }
  return { from, to };
}

export function dateRange<N extends string>(
  fields: Fields<N>,
  fromName: NoInfer<N>,
  toName: NoInfer<N>,
  order: DateOrder,
): Range<string> {
  return range(fromName, optionalDate(fields, fromName, order), toName, optionalDate(fields, toName, order));
}

/** Code ranges compare case-insensitively (codes are matched without regard to case). */
export function codeRange<N extends string>(
  fields: Fields<N>,
  fromName: NoInfer<N>,
  toName: NoInfer<N>,
): Range<string> {
  const from = code(fields, fromName)?.toUpperCase();
  const to = code(fields, toName)?.toUpperCase();
  return range(fromName, from, toName, to, (a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Month: 1-12, 01-12, Jan..Dec, January..December; missing = the clock's current month. */
export function month<N extends string>(fields: Fields<N>, name: NoInfer<N>, now: Date): number {
  const value = text(fields, name);
  if (value === undefined) return now.getUTCMonth() + 1;
  if (/^\d{1,2}$/.test(value)) {
    const n = Number(value);
    if (n >= 1 && n <= 12) return n;
  } else {
    const n = monthFromName(value);
    if (n !== undefined) return n;
  }
  throw invalid(name, `'${value}' is not a month (use 1-12, Jan-Dec or January-December)`);
}

/** Year: four digits; missing = the clock's current year. */
export function year<N extends string>(fields: Fields<N>, name: NoInfer<N>, now: Date): number {
  const value = text(fields, name);
  if (value === undefined) return now.getUTCFullYear();
  if (/^\d{4}$/.test(value) && Number(value) >= 1900) return Number(value);
  throw invalid(name, `'${value}' is not a year (use four digits, e.g. 2026)`);
}

/** Comma-separated codes, upper-cased; "ALL" anywhere, or nothing left, means no filter (undefined). */
export function list<N extends string>(fields: Fields<N>, name: NoInfer<N>): string[] | undefined {
  const value = text(fields, name);
  if (value === undefined) return undefined;
  const trimmed = value.split(',').map((s) => s.trim());
  const long = trimmed.findIndex((s) => s.length > MAX_CODE_LENGTH);
  if (long !== -1)
    throw invalid(
      name,
      `item ${long + 1} is ${trimmed[long].length} characters long; at most ${MAX_CODE_LENGTH} are accepted`,
    );
  const items = [...new Set(trimmed.map((s) => s.toUpperCase()).filter((s) => s !== ''))];
  if (items.length === 0 || items.includes('ALL')) return undefined;
  if (items.length > 1000) throw invalid(name, `lists ${items.length} values; at most 1000 are accepted`);
  return items;
}

export type Direction = 'asc' | 'desc';

export interface Sort<F extends string> {
  field: F;
  direction: Direction;
}

/** The fields SortBy may name and the one it defaults to: part of an operation's declaration. */
export interface Sorting<F extends string = string> {
  fields: readonly F[];
  fallback: F;
}

/** SortBy names one of `allowed` (any case), so it maps to a column without splicing input. */
export function sort<F extends string>(fields: Fields<SortName>, { fields: allowed, fallback }: Sorting<F>): Sort<F> {
  const by = text(fields, 'SortBy');
  let field = fallback;
  if (by !== undefined) {
    const match = allowed.find((a) => a.toLowerCase() === by.toLowerCase());
    if (!match) throw invalid('SortBy', `'${by}' is not a field of the result (use one of ${allowed.join(', ')})`);
    field = match;
  }
  return { field, direction: direction(fields) };
}

type SortName = 'SortBy' | 'SortDirection';

export function direction(fields: Fields<'SortDirection'>): Direction {
  const value = text(fields, 'SortDirection')?.toLowerCase();
  if (value === undefined || value === 'asc' || value === 'ascending') return 'asc';
  if (value === 'desc' || value === 'descending') return 'desc';
  throw invalid('SortDirection', `'${fields.SortDirection?.trim()}' is not a direction (use ASC or DESC)`);
}

export function positiveInteger<N extends string>(
  fields: Fields<N>,
  name: NoInfer<N>,
  fallback: number,
  max: number,
): number {
  const value = text(fields, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw invalid(name, `'${value}' is not a whole number between 1 and ${max}`);
  }
  return Number(value);
}

/** One value out of a fixed set, any case, with aliases; returns the canonical value. */
export function oneOf<N extends string, T extends string>(
  fields: Fields<N>,
  name: NoInfer<N>,
  accepted: Readonly<Record<string, T>>,
): T | undefined {
  const value = text(fields, name);
  if (value === undefined) return undefined;
  const match = accepted[value.toUpperCase()];
  if (match === undefined) {
    throw invalid(name, `'${value}' is not accepted (use one of ${[...new Set(Object.values(accepted))].join(', ')})`);
  }
  return match;
}
