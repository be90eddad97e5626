/**
 * An answer row made from a query's row (docs/architecture.md, "Rows shaped where they are read"):
 * each field of the answer from one column, as it is or converted. The same shape makes the row on
 * the main thread (from a row object: PostgreSQL, SQLite in process) and in an SQLite worker thread
 * (from the row's array of values), where the worker then writes the rows' JSON itself: the main
 * thread takes one string instead of parsing the rows, building them twice and writing them again.
 *
 * The worker thread loads this file beside its own (worker-main.ts), so it imports nothing but the
 * conversions (../operations/values.ts), which import nothing either.
 */
import { amount, compareValues, percentOf, plainNumber } from '../operations/values';
import { SHAPED_TEXT_ROWS } from '../tunables';

/**
 * What becomes of a column's value: `value` as it is; `number` as a number, null as 0 (a sum that
 * PostgreSQL gives as numeric text); `money` from minor units (docs/behaviour.md); `percent` as a
 * percentage of the field's `of` column (percentOf). The conversions are ../operations/values.ts.
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

/** Makes one answer row from a query row (its array of values, or its object). */
export type RowMaker = (row: unknown) => Record<string, unknown>;

/** A query row's values, by index (an array of values) or by column name (a row object). */
type QueryRow = Record<string | number, unknown>;

/**
 * The maker of the shape's rows, where `at` says where a column's value is in a query row (an index
 * in an array of values, a name in a row object). Each field is assigned in the shape's order, so a
 * name is a property name as in a row object better-sqlite3 makes (`__proto__` sets the prototype).
 */
function rowMaker(shape: RowShape, at: (column: string) => string | number): RowMaker {
  const fields = shape.map(({ name, column, conversion, of }) => ({ name, value: fieldValue(conversion, at(column), of === undefined ? undefined : at(of)) }));
  return (row) => {
    const answer: Record<string, unknown> = {};
    for (const { name, value } of fields) answer[name] = value(row as QueryRow);
    return answer;
  };
}

/** How a field's value is read from a query row: its column's value at `at`, converted. */
function fieldValue(conversion: Conversion, at: string | number, of: string | number | undefined): (row: QueryRow) => unknown {
  switch (conversion) {
    case 'value':
      return (row) => row[at];
    case 'number':
      return (row) => plainNumber(row[at]);
    case 'money':
      return (row) => amount(row[at]);
    case 'percent':
      if (of === undefined) throw new Error('A percent field names the column it is a percentage of');
      return (row) => percentOf(row[at], row[of]);
  }
}

/** The maker of the shape's rows from row objects, each column read by its name. */
export function objectRowMaker(shape: RowShape): RowMaker {
  return rowMaker(shape, (column) => column);
}

/**
 * The maker of the shape's rows from arrays of values whose columns are `columns`; throws when the
 * shape names a column the statement does not have.
 */
export function arrayRowMaker(shape: RowShape, columns: readonly string[]): RowMaker {
  return rowMaker(shape, arrayIndex(columns));
}

/**
 * The maker of the row objects better-sqlite3 gives in-process, from arrays of values whose columns
 * are `columns`: each column under its own name, in order.
 */
export function columnRowMaker(columns: readonly string[]): RowMaker {
  return rowMaker(
    columns.map((name) => ({ name, column: name, conversion: 'value' })),
    arrayIndex(columns),
  );
}

/** A column's index in an array of values: a name that comes twice gives its last value, as in a row object. */
function arrayIndex(columns: readonly string[]): (column: string) => number {
  return (column) => {
    const at = columns.lastIndexOf(column);
    if (at < 0) throw new Error(`The statement has no column ${JSON.stringify(column)} for its answer's rows`);
    return at;
  };
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
    private readonly makeRow: RowMaker,
    private readonly options: WholeOptions,
    /** Reads a summed column's value from a query row (an array of values or a row object). */
    private readonly column: (row: unknown, name: string) => unknown,
    /** Whether the chunks are UTF-8 bytes (a worker thread's) or text. */
    private readonly bytes: boolean,
  ) {
    this.sums = (options.sums ?? []).map(() => 0);
  }

  add(part: readonly unknown[]): void {
    for (let from = 0; from < part.length; from += SHAPED_TEXT_ROWS) this.write(part, from, Math.min(part.length, from + SHAPED_TEXT_ROWS));
  }

  /** The rows of part[from, to) made, summed, checked and written. */
  private write(part: readonly unknown[], from: number, to: number): void {
    const made = new Array<Record<string, unknown>>(to - from);
    const sums = this.options.sums ?? [];
    for (let r = from; r < to; r++) {
      const row = part[r];
      const answer = this.makeRow(row);
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

function inOrder(before: Record<string, unknown>, after: Record<string, unknown>, order: RowOrder): boolean {
  const byField = compareValues(before[order.field], after[order.field]);
  const signed = order.descending ? -byField : byField;
  return signed < 0 || (signed === 0 && compareValues(before[order.key], after[order.key]) <= 0);
}
