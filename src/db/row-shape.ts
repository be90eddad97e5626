/**
 * An answer row made from a query's row (docs/operations.md, "Rows shaped where they are read"):
 * each field of the answer from one column, as it is or converted. The same shape makes the row on
 * the main thread (from a row object: PostgreSQL, SQLite in process) and in an SQLite worker thread
 * (from the row's array of values), where the worker then writes the rows' JSON itself: the main
 * thread takes one string instead of parsing the rows, building them twice and writing them again.
 *
 * The worker thread loads this file beside its own (worker-main.ts), so it imports nothing.
 */

/**
 * What becomes of a column's value: `value` as it is; `number` as a number, null as 0 (a sum that
 * PostgreSQL gives as numeric text); `money` from minor units (docs/behaviour.md); `percent` as a
 * percentage of the field's `of` column (percentOf).
 */
export type Conversion = 'value' | 'number' | 'money' | 'percent';

export interface ShapeField {
  /** The answer's field name. */
  name: string;
  /** The query's column it is made from. */
  column: string;
  conversion: Conversion;
  /** For `percent`: the column the value is a percentage of. */
  of?: string;
}

/** The fields of an answer row in the order the answer writes them. */
export type RowShape = readonly ShapeField[];

/** Money is stored in integer minor units and answered as a number with (at most) two decimals. */
export function moneyAmount(minor: unknown): number {
  return Math.round(Number(minor ?? 0)) / 100;
}

/** A sum's or a count's value as a number: PostgreSQL gives numeric as text, a sum over no rows is null. */
export function plainNumber(value: unknown): number {
  return Number(value ?? 0);
}

/** `part` as a percentage of `whole`, two decimals, 0 when `whole` is 0 (both numbers as plainNumber gives them). */
export function percentOf(part: unknown, whole: unknown): number {
  const of = plainNumber(whole);
  return of === 0 ? 0 : Math.round((plainNumber(part) * 10000) / of) / 100;
}

/** Makes one row object from a query row (its array of values, or its object). */
export type RowMaker = new (row: unknown) => Record<string, unknown>;

/**
 * The constructor of the shape's rows, `function (v) { this["PDCID"] = v[0]; this["Amount"] =
 * moneyAmount(v[11]); ... }`, where `access` writes how a column's value is reached (`v[0]` in an
 * array, `v["pdc_id"]` in an object); its objects are plain ones (their prototype is Object.prototype).
 * V8 sizes the objects of a constructor to the properties it sets, so every field has a slot in the
 * object itself. An empty object given its fields one by one has room for four, the others go to a
 * second allocation, slower to build and larger. Not an object literal, `{ "code": v[0], ... }`: V8
 * tracks where literals are made, and once the rows of a report outlived a collection it made that
 * literal's later objects directly in the old generation, streamed rows too, where they stayed until a
 * full collection. The names are written as JSON strings, so any name is a property name and nothing
 * else; `__proto__` sets the prototype, as in a row object better-sqlite3 makes.
 */
function rowMaker(shape: RowShape, access: (column: string) => string): RowMaker {
  const body = shape
    .map(({ name, column, conversion, of }) => `this[${JSON.stringify(name)}] = ${converted(conversion, access(column), of === undefined ? undefined : access(of))};`)
    .join('\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- made from names written as JSON strings and from `access`, which writes only element reads (see above)
  const make = new Function('moneyAmount', 'plainNumber', 'percentOf', `return function Row(v) {\n${body}\n}`) as (money: typeof moneyAmount, number: typeof plainNumber, percent: typeof percentOf) => RowMaker;
  const Row = make(moneyAmount, plainNumber, percentOf);
  Row.prototype = Object.prototype;
  return Row;
}

/** The expression of a field's value in a row maker's body: `value` and `of` are element reads. */
function converted(conversion: Conversion, value: string, of: string | undefined): string {
  switch (conversion) {
    case 'value':
      return value;
    case 'number':
      return `plainNumber(${value})`;
    case 'money':
      return `moneyAmount(${value})`;
    case 'percent':
      if (of === undefined) throw new Error('A percent field names the column it is a percentage of');
      return `percentOf(${value}, ${of})`;
  }
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

/** A value of an answer row as the reports order them: numbers by value, text by code point, nulls first. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}

/** The order an answer's rows are asked of SQL in: by one field, ties by the key field ascending. */
export interface RowOrder {
  field: string;
  descending: boolean;
  key: string;
}

/** What a whole result read by a shape gives besides its rows (WholeShaper). */
export interface WholeOptions {
  /** Columns of the query summed over every row, each value as plainNumber gives it. */
  sums?: readonly string[];
  /** The order SQL was asked for: whether the rows came in it is checked as they are made. */
  order?: RowOrder;
}

/** A whole result made into its answer rows: their JSON, the sums asked for, and whether they were in order. */
export interface WholeShaped {
  count: number;
  /**
   * JSON.stringify of the answer rows in chunks that follow one another, as text (made on the main
   * thread: the socket encodes it into memory it frees as soon as it is sent) or as UTF-8 bytes (a
   * worker thread joins them into one chunk, in a memory of its own, which it hands over without a
   * copy: a transfer).
   */
  chunks: (string | Uint8Array)[];
  /** One sum per column of WholeOptions.sums. */
  sums: number[];
  /** The rows came in WholeOptions.order (true without one). */
  ordered: boolean;
}

/**
 * Makes a whole result into its answer rows a part at a time (docs/operations.md, "Whole reports read
 * by a shape"): each part's rows are made, summed, checked against the order and written as JSON,
 * then let go, so that what stays is one chunk of JSON per part, not tens of thousands of objects that
 * every collection of the young generation would copy. The same code runs in an SQLite worker thread
 * (rows as arrays of values, chunks of bytes) and on the main thread (PostgreSQL's row objects, a part
 * per cursor fetch, chunks of text).
 */
export class WholeShaper {
  private readonly parts: (string | Buffer)[] = [];
  private readonly sums: number[];
  private count = 0;
  private ordered = true;
  private last: Record<string, unknown> | undefined;

  constructor(
    private readonly Row: RowMaker,
    private readonly options: WholeOptions,
    /** Reads a summed column's value from a query row (an array of values or a row object). */
    private readonly column: (row: unknown, name: string) => unknown,
    /** Whether the chunks are UTF-8 bytes (a worker thread's) or text. */
    private readonly bytes: boolean,
  ) {
    this.sums = (options.sums ?? []).map(() => 0);
  }

  add(part: readonly unknown[]): void {
    for (let from = 0; from < part.length; from += TEXT_ROWS) this.write(part, from, Math.min(part.length, from + TEXT_ROWS));
  }

  /** The rows of part[from, to) made, summed, checked and written. */
  private write(part: readonly unknown[], from: number, to: number): void {
    const made = new Array<Record<string, unknown>>(to - from);
    const sums = this.options.sums ?? [];
    for (let r = from; r < to; r++) {
      const row = part[r];
      const answer = new this.Row(row);
      made[r - from] = answer;
      for (let c = 0; c < sums.length; c++) this.sums[c] += plainNumber(this.column(row, sums[c]));
      if (this.ordered && this.last !== undefined && this.options.order !== undefined) this.ordered = inOrder(this.last, answer, this.options.order);
      this.last = answer;
    }
    const text = JSON.stringify(made);
    // The array's brackets give way to the separators of the whole: '[' stays first, ',' after; ']' goes last.
    if (this.bytes) {
      const bytes = Buffer.from(text, 'utf8');
      if (this.parts.length > 0) bytes[0] = 0x2c;
      this.parts.push(bytes.subarray(0, bytes.length - 1));
    } else {
      this.parts.push(`${this.parts.length > 0 ? ',' : '['}${text.slice(1, -1)}`);
    }
    this.count += to - from;
  }

  result(): WholeShaped {
    const end = this.parts.length === 0 ? '[]' : ']';
    return { count: this.count, chunks: [...this.parts, this.bytes ? Buffer.from(end, 'utf8') : end], sums: this.sums, ordered: this.ordered };
  }
}

/**
 * Rows written as JSON at once: their text stays under V8's size for large objects. Encoded at once in
 * a worker, it dies young, in a scavenge; kept on the main thread, it is one flat string a scavenge
 * copies in one go. A large object would be freed only by a full collection.
 */
const TEXT_ROWS = 250;

function inOrder(before: Record<string, unknown>, after: Record<string, unknown>, order: RowOrder): boolean {
  const byField = compareValues(before[order.field], after[order.field]);
  const signed = order.descending ? -byField : byField;
  return signed < 0 || (signed === 0 && compareValues(before[order.key], after[order.key]) <= 0);
}
