/**
 * The value types of import columns and how a CSV text becomes a stored value (docs/import.md,
 * "Values"). The stored forms follow src/db/schema.ts: money in integer minor units, dates
 * 'yyyy-MM-dd', timestamps ISO-8601 UTC, flags 0/1, enumerations in their canonical upper case.
 */
import type { DateOrder } from '../config';
import { AppError } from '../errors';
import { parseDate } from '../operations/parse';

export type ColumnType =
  | { kind: 'text'; max: number; lowerCase?: boolean }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'money'; signed: boolean }
  | { kind: 'date' }
  | { kind: 'timestamp' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'flag' };

export type Value = string | number | null;

/** A value that cannot be stored in its column; the message is the reason shown in the reject report. */
export class ValueError extends Error {}

/** Largest magnitude kept exact by a JavaScript number (and by the drivers' int8 parsing). */
const MAX_DIGITS = 15;

export function parseValue(type: ColumnType, text: string, dateOrder: DateOrder): string | number {
  switch (type.kind) {
    case 'text':
      return textValue(text, type.max, type.lowerCase === true);
    case 'integer':
      return integerValue(text, type.min, type.max);
    case 'money':
      return moneyValue(text, type.signed);
    case 'date':
      return dateValue(text, dateOrder);
    case 'timestamp':
      return timestampValue(text);
    case 'enum':
      return enumValue(text, type.values);
    case 'flag':
      return flagValue(text);
  }
}

/** First characters that make a spreadsheet read a cell as a formula, and the escape's own apostrophe. */
const ESCAPED_START = /^[=+\-@\t\r']/;

/**
 * A text as the export writes it (docs/import.md, "Text that looks like a formula"): after an
 * apostrophe when a spreadsheet would run it, or when it starts with one, so that the rule reverses.
 */
export function escapeText(text: string): string {
  return ESCAPED_START.test(text) ? `'${text}` : text;
}

/** A text cell as the import reads it: one leading apostrophe is the escape above, and is taken off. */
export function unescapeText(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

function textValue(text: string, max: number, lowerCase: boolean): string {
  if (text.length > max) throw new ValueError(`is ${text.length} characters long; at most ${max} are accepted`);
  return lowerCase ? text.toLowerCase() : text;
}

const WHOLE_NUMBER = new RegExp(`^[-+]?\\d{1,${MAX_DIGITS}}$`);
const AMOUNT = new RegExp(`^([-+]?)(\\d{1,${MAX_DIGITS - 2}})(?:\\.(\\d{1,2}))?$`);

function integerValue(text: string, min: number, max: number): number {
  if (!WHOLE_NUMBER.test(text)) throw new ValueError(`'${text}' is not a whole number`);
  const n = Number(text);
  if (n < min || n > max) throw new ValueError(`${n} is out of range (${min}..${max})`);
  return n;
}

/** A decimal with at most two decimals -> integer minor units, without any floating-point step. */
function moneyValue(text: string, signed: boolean): number {
  const m = text.match(AMOUNT);
  if (!m) throw new ValueError(`'${text}' is not an amount (use digits with at most two decimals, e.g. 1234.50)`);
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  const value = m[1] === '-' ? -minor : minor;
  if (value < 0 && !signed) throw new ValueError(`'${text}' is negative; this amount cannot be`);
  return value === 0 ? 0 : value;
}

function dateValue(text: string, dateOrder: DateOrder): string {
  try {
    return parseDate(text, 'date', dateOrder);
  } catch (err) {
    // parseDate names the field first ("date: '31/02/2026' is not a date (use ...)"); the report has its own column.
    if (err instanceof AppError) throw new ValueError(err.message.replace(/^date: /, ''));
    throw err;
  }
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO-8601 date and time; without a zone it is UTC (docs/behaviour.md: all timestamps UTC). Stored as toISOString(). */
function timestampValue(text: string): string {
  const m = text.match(TIMESTAMP);
  const bad = () => new ValueError(`'${text}' is not a timestamp (use ISO-8601, e.g. 2026-03-31T14:05:00Z)`);
  if (!m) throw bad();
  const [, y, mo, d, h, mi, s = '00'] = m;
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  // Date.UTC rolls 31 Feb over into March; an impossible date or time is an error instead.
  const rolled =
    calendar.getUTCFullYear() !== Number(y) ||
    calendar.getUTCMonth() !== Number(mo) - 1 ||
    calendar.getUTCDate() !== Number(d) ||
    calendar.getUTCHours() !== Number(h) ||
    calendar.getUTCMinutes() !== Number(mi) ||
    calendar.getUTCSeconds() !== Number(s);
  if (rolled || Number(y) < 1900) throw bad();
  const zone =
    m[8] === undefined ? 'Z' : m[8].toUpperCase() === 'Z' ? 'Z' : m[8].replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  const instant = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${m[7] ?? ''}${zone}`);
  if (Number.isNaN(instant.getTime())) throw bad();
  return instant.toISOString();
}

function enumValue(text: string, values: readonly string[]): string {
  const match = values.find((v) => v === text.toUpperCase());
  if (match === undefined) throw new ValueError(`'${text}' is not one of ${values.join(', ')}`);
  return match;
}

const TRUE = ['1', 'TRUE', 'YES', 'Y'];
const FALSE = ['0', 'FALSE', 'NO', 'N'];

function flagValue(text: string): number {
  const upper = text.toUpperCase();
  if (TRUE.includes(upper)) return 1;
  if (FALSE.includes(upper)) return 0;
  throw new ValueError(`'${text}' is not a flag (use 1 or 0, true or false, Y or N)`);
}
