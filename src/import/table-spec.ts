/**
 * What an import file may hold, declared once per table (docs/import.md): its columns and their
 * types, its key (the upsert target), the codes it refers to, and the few rules that span columns.
 * Column names here are the only ones that ever reach SQL; a file's header is matched against them.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { ColumnType, Value } from './column-types';
import type { SummaryUpkeep } from './summary-upkeep';

export type ImportTable = Exclude<keyof Database, 'warranty_files' | 'counters'>;

export type Row = Record<string, Value>;

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  /** Must be in the header and non-empty on every row. */
  required: boolean;
  /** The value when the column is left out of the file or left empty (null when not given). */
  fallback?: Value | ((row: Row) => Value);
}

/** columns of this table must name an existing row of `table` (by `targets`), in the database or loaded earlier. */
export interface ReferenceSpec {
  columns: string[];
  table: keyof Database;
  targets: string[];
  /** The database has no foreign key for it (its targets are not the table's key): the import checks every row. */
  unenforced?: boolean;
}

/** A rule over several columns of one row; returns the reject, if any. */
export type RowCheck = (row: Row) => { column: string; reason: string } | undefined;

/** A row that passed validation, on its way into the database. */
export interface PendingRow {
  line: number;
  values: Row;
}

/** Per-file steps for tables whose rows take numbers from the counters (warranty_requests). */
export interface WriteHooks {
  /** Columns the hook fills, written on update too. */
  assignedColumns: string[];
  /** Runs first in the file's transaction. */
  start(trx: Transaction<Database>): Promise<void>;
  /** Runs before each batch is written, the batch staged (staging.ts); `compared` are the columns the file sets on update. */
  beforeWrite(trx: Transaction<Database>, rows: PendingRow[], compared: string[]): Promise<void>;
  afterFile(trx: Transaction<Database>): Promise<void>;
}

export interface UniqueSpec {
  column: string;
  within?: string;
}

export interface TableSpec {
  table: ImportTable;
  key: string[];
  columns: ColumnSpec[];
  references: ReferenceSpec[];
  /** Columns that are unique besides the key: across the table, or within the rows of one value of `within`. */
  unique?: UniqueSpec[];
  check?: RowCheck;
  /** Columns of the table that the import sets itself; a file that names one is refused. */
  assigned?: string[];
  /** The file's hooks; `summaries` is the run's summary upkeep. */
  hooks?: (summaries: SummaryUpkeep) => WriteHooks;
}

// ---- terse column declarations for the spec files ------------------------------------------------

export const LENGTH = { code: 50, short: 100, name: 200, long: 4000 } as const;

export const CODE: ColumnType = { kind: 'text', max: LENGTH.code };
export const SHORT: ColumnType = { kind: 'text', max: LENGTH.short };
export const NAME: ColumnType = { kind: 'text', max: LENGTH.name };
export const LONG: ColumnType = { kind: 'text', max: LENGTH.long };
export const DATE: ColumnType = { kind: 'date' };
export const TIMESTAMP: ColumnType = { kind: 'timestamp' };
export const FLAG: ColumnType = { kind: 'flag' };
/** integer columns are 32-bit in PostgreSQL. */
const INT_MAX = 2_147_483_647;
export const POSITIVE_INTEGER: ColumnType = { kind: 'integer', min: 1, max: INT_MAX };
export const QUANTITY: ColumnType = { kind: 'integer', min: -INT_MAX, max: INT_MAX };
/** Prices, limits, collected amounts: never below zero. */
export const AMOUNT: ColumnType = { kind: 'money', signed: false };
/** Line values and document totals may be negative (returns, discounts, credit adjustments). */
export const SIGNED_AMOUNT: ColumnType = { kind: 'money', signed: true };

export const enumOf = (values: readonly string[]): ColumnType => ({ kind: 'enum', values });

export function required(name: string, type: ColumnType): ColumnSpec {
  return { name, type, required: true };
}

export function optional(name: string, type: ColumnType, fallback: ColumnSpec['fallback'] = null): ColumnSpec {
  return { name, type, required: false, fallback };
}

export function ref(columns: string | string[], table: keyof Database, targets: string | string[]): ReferenceSpec {
  return { columns: [columns].flat(), table, targets: [targets].flat() };
}

/** The customer and the sales officer a document belongs to, as most documents name them. */
export const PARTY: ReferenceSpec[] = [
  ref('customer_code', 'customers', 'code'),
  ref('sales_officer_id', 'users', 'id'),
];
