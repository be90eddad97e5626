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

/** Makes one row object from a query row (its array of values, or its object). */
export type RowMaker = new (row: unknown) => Record<string, unknown>;

/**
 * The constructor of the shape's rows, `function (v) { this["PDCID"] = v[0]; this["Amount"] =
 * moneyAmount(v[11]); ... }`, where `access` writes how a column's value is reached (`v[0]` in an
 * array, `v["pdc_id"]` in an object); its objects are plain ones (their prototype is
 * Object.prototype). V8 sizes the objects of a constructor to the properties it sets, so every field
 * has a slot in the object itself. An empty object given its fields one by one has room for four, the
 * others go to a second allocation, and building 30,000 rows of eight columns took five to ten times
 * as long (7 to 15 ms against 2) and twice the memory. Not an object literal, `{ "code": v[0], ... }`:
 * V8 tracks where literals are made, and once the rows of a report outlived a collection it made that
 * literal's later objects directly in the old generation, streamed rows too, where they stayed until
 * a full collection (four large lists streaming at once peaked at 246 to 319 MB instead of 233). The
 * names are written as JSON strings, so any name is a property name and nothing else; `__proto__`
 * sets the prototype, as in a row object better-sqlite3 makes.
 */
function rowMaker(shape: RowShape, access: (column: string) => string): RowMaker {
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

/** Makers kept, one per shape and column list met (the queries of the code: a few hundred at most). */
const MAKERS_KEPT = 1024;
const makers = new Map<string, RowMaker>();

/** The maker kept under `key`, made by `make` the first time. */
function kept(key: string, make: () => RowMaker): RowMaker {
  let Row = makers.get(key);
  if (Row === undefined) {
    Row = make();
    if (makers.size >= MAKERS_KEPT) makers.clear();
    makers.set(key, Row);
  }
  return Row;
}

/** The maker of the shape's rows from row objects, each column read by its name. */
export function objectRowMaker(shape: RowShape): RowMaker {
  return kept(`object\n${JSON.stringify(shape)}`, () => rowMaker(shape, (column) => `v[${JSON.stringify(column)}]`));
}

/**
 * The maker of the shape's rows from arrays of values whose columns are `columns`; throws when the
 * shape names a column the statement does not have.
 */
export function arrayRowMaker(shape: RowShape, columns: readonly string[]): RowMaker {
  return kept(`array\n${JSON.stringify(shape)}\n${columns.join('\u0000')}`, () => rowMaker(shape, arrayAccess(columns)));
}

/**
 * The maker of the row objects better-sqlite3 gives in-process, from arrays of values whose columns
 * are `columns`: each column under its own name, in order.
 */
export function columnRowMaker(columns: readonly string[]): RowMaker {
  return kept(`columns\n${columns.join('\u0000')}`, () => rowMaker(columns.map((name) => ({ name, column: name, conversion: 'value' })), arrayAccess(columns)));
}

/** A column's value in an array of values: a name that comes twice gives its last value, as in a row object. */
function arrayAccess(columns: readonly string[]): (column: string) => string {
  return (column) => {
    const at = columns.lastIndexOf(column);
    if (at < 0) throw new Error(`The statement has no column ${JSON.stringify(column)} for its answer's rows`);
    return `v[${at}]`;
  };
}
