/**
 * An answer row made from a query's row (docs/operations.md, "Rows shaped where they are read"):
 * each field of the answer from one column, as it is or converted. The same shape makes the row on
 * the main thread (from a row object: PostgreSQL, SQLite in process) and in an SQLite worker thread
 * (from the row's array of values), where the worker then writes the rows' JSON itself: the main
 * thread takes one string instead of parsing the rows, building them twice and writing them again.
 *
 * The worker thread loads this file beside its own (worker-main.ts), so it imports nothing.
 */

/** What becomes of a column's value: `value` as it is; `money` from minor units (docs/behaviour.md). */
export type Conversion = 'value' | 'money';

export interface ShapeField {
  /** The answer's field name. */
  name: string;
  /** The query's column it is made from. */
  column: string;
  conversion: Conversion;
}

/** The fields of an answer row in the order the answer writes them. */
export type RowShape = readonly ShapeField[];

/** Money is stored in integer minor units and answered as a number with (at most) two decimals. */
export function moneyAmount(minor: unknown): number {
  return Math.round(Number(minor ?? 0)) / 100;
}

/** Makes one answer row from a query row (its array of values, or its object). */
export type RowMaker = new (row: unknown) => Record<string, unknown>;

/**
 * The constructor of the shape's rows, `function (v) { this["PDCID"] = v[0]; this["Amount"] =
 * moneyAmount(v[11]); ... }`, where `access` writes how a column's value is reached (`v[0]` in an
 * array, `v["pdc_id"]` in an object). A constructor, not an object literal: V8 sizes its objects to
 * the properties it sets and tracks no allocation site for them (sqlite-worker/worker-link.ts tells
 * what a literal's site did to streamed rows). The names are written as JSON strings, so any name is
 * a property name and nothing else.
 */
export function rowMaker(shape: RowShape, access: (column: string) => string): RowMaker {
  const body = shape
    .map(({ name, column, conversion }) => {
      const value = access(column);
      return `this[${JSON.stringify(name)}] = ${conversion === 'money' ? `moneyAmount(${value})` : value};`;
    })
    .join('\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- made from names written as JSON strings and from `access`, which writes only element reads (see above)
  const make = new Function('moneyAmount', `return function Row(v) {\n${body}\n}`) as (convert: typeof moneyAmount) => RowMaker;
  const Row = make(moneyAmount);
  Row.prototype = Object.prototype;
  return Row;
}

/** The maker of rows from row objects, each column read by its name. */
export function objectRowMaker(shape: RowShape): RowMaker {
  return rowMaker(shape, (column) => `v[${JSON.stringify(column)}]`);
}

/**
 * The maker of rows from arrays of values whose columns are `columns`; throws when the shape names a
 * column the statement does not have (a name that comes twice: its last value, as in a row object).
 */
export function arrayRowMaker(shape: RowShape, columns: readonly string[]): RowMaker {
  return rowMaker(shape, (column) => {
    const at = columns.lastIndexOf(column);
    if (at < 0) throw new Error(`The statement has no column ${JSON.stringify(column)} for its answer's rows`);
    return `v[${at}]`;
  });
}
