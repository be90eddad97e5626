/**
 * Loads one CSV file into its table inside the caller's transaction: header, then every record read,
 * validated and written in batches as the file streams by (docs/import.md). Returns the counts; every
 * rejected row is handed to `reject` as soon as it is known.
 */
import type { Transaction } from 'kysely';
import type { DateOrder } from '../config';
import type { Database } from '../db/schema';
import { BatchWriter, type RejectSink, type WriteCounts } from './batch-writer';
import { readCsvRecords, type CsvRecord } from './csv-records';
import { readHeader, type Header, type Problem } from './header';
import { keyOf } from './reference-check';
import { rowValues } from './row-values';
import type { StageRows } from './staging';
import type { SummaryUpkeep } from './summary-upkeep';
import type { PendingRow, ReferenceSpec, TableSpec } from './table-spec';
import { IMPORT_BATCH_ROWS, IMPORT_PROGRESS_ROWS } from '../tunables';

export interface LoadOptions {
  dateOrder: DateOrder;
  reject: RejectSink;
  batchRows?: number;
  /** The run's summary upkeep, which the files of summarised tables note their customers in. */
  summaries: SummaryUpkeep;
  /** Hears how many rows have been read and how many bytes of the file, every IMPORT_PROGRESS_ROWS rows. */
  progress?: (rows: number, bytes: number) => void;
}

export interface FileLoad extends WriteCounts {
  read: number;
  /** The header refused the file: nothing was read or written. */
  refused: boolean;
}

export async function loadFile(
  trx: Transaction<Database>,
  stage: StageRows,
  spec: TableSpec,
  file: string,
  options: LoadOptions,
): Promise<FileLoad> {
  const chunks = readCsvRecords(file);
  const first = await chunks.next();
  const records = first.done ? [] : first.value;
  const header = headerOf(spec, records.shift());
  if ('problems' in header) {
    await chunks.return(undefined);
    for (const p of header.problems) options.reject(header.line, p.column, p.reason);
    return { read: 0, inserted: 0, updated: 0, rejected: 0, refused: true };
  }
  const hooks = spec.hooks?.(options.summaries);
  await hooks?.start(trx);
  const writer = new BatchWriter(trx, stage, spec, [...header.header.positions.keys()], hooks, options.reject);
  const rest = (async function* () {
    yield records;
    yield* chunks;
  })();
  const read = await loadRows(rest, spec, header.header, writer, options);
  await writer.finish();
  await hooks?.afterFile(trx);
  return { read, ...writer.counts, refused: false };
}

function headerOf(
  spec: TableSpec,
  first: CsvRecord | undefined,
): { header: Header } | { line: number; problems: Problem[] } {
  if (first === undefined)
    return { line: 1, problems: [{ column: '', reason: 'the file is empty; its first line must be the header' }] };
  if ('error' in first) return { line: first.line, problems: [{ column: '', reason: first.error }] };
  const header = readHeader(spec, first.fields);
  return 'problems' in header ? { line: first.line, problems: header.problems } : header;
}

/** Reads, checks and writes the rows after the header; returns how many were read. */
async function loadRows(
  chunks: AsyncIterable<CsvRecord[]>,
  spec: TableSpec,
  header: Header,
  writer: BatchWriter,
  options: LoadOptions,
): Promise<number> {
  const batchRows = options.batchRows ?? IMPORT_BATCH_ROWS;
  const batch = new PendingBatch(writer, spec.key, batchRows);
  const selfReference = spec.references.find((r) => r.table === spec.table);
  const held: PendingRow[] = [];
  let read = 0;
  let bytes = 0;
  try {
    for await (const records of chunks) {
      for (const record of records) {
        if ('bytes' in record) bytes = record.bytes;
        if (read % IMPORT_PROGRESS_ROWS === 0) options.progress?.(read, bytes);
        // A line of empty fields (",,,", as spreadsheets leave at the end) is not a row.
        if ('fields' in record && record.fields.every((f) => f.trim() === '')) continue;
        read++;
        const result =
          'error' in record
            ? { problems: [{ column: '', reason: record.error }] }
            : rowValues(spec, header, record.fields, options.dateOrder);
        if ('problems' in result) {
          writer.rejectRow(record, result.problems);
          continue;
        }
        const row: PendingRow = { line: record.line, values: result.values };
        const sent = selfReference ? void held.push(row) : batch.add(row);
        if (sent) await sent;
      }
    }
  } catch (err) {
    // No write may go on in the transaction that the caller is about to roll back.
    await batch.settle();
    throw err;
  }
  await batch.flush();
  if (selfReference) await writeParentsFirst(writer, spec, selfReference, held, batchRows);
  return read;
}

/**
 * Rows waiting to be written; a batch never holds one key twice (a later row with the same key is an
 * update). A full batch is written while the next one is read: at most one write is under way, and
 * each starts after the one before it has finished.
 */
class PendingBatch {
  private rows: PendingRow[] = [];
  private keys = new Set<string>();
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly writer: BatchWriter,
    private readonly key: string[],
    private readonly size: number,
    private readonly onWritten?: (rows: PendingRow[]) => void,
  ) {}

  /** Takes a row; a promise only when that sends a batch, so that most rows cost no await. */
  add(row: PendingRow): Promise<void> | undefined {
    const key = this.key.length === 1 ? String(row.values[this.key[0]]) : keyOf(this.key.map((c) => row.values[c]));
    if (this.keys.has(key)) return this.send().then(() => this.add(row));
    this.rows.push(row);
    this.keys.add(key);
    return this.rows.length >= this.size ? this.send() : undefined;
  }

  /** Writes every row gathered so far, and returns once they are written. */
  async flush(): Promise<void> {
    await this.send();
    await this.writing;
  }

  /** Waits for the write under way, if any, whatever its outcome. */
  async settle(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  private async send(): Promise<void> {
    const { rows, keys } = this;
    this.rows = [];
    this.keys = new Set();
    await this.writing;
    this.writing = this.writer.write(rows, keys).then((written) => this.onWritten?.(written));
    // A failed write is thrown by the next send or flush; until then it is not an unhandled rejection.
    this.writing.catch(() => undefined);
  }
}

/**
 * A table that refers to itself (users.manager_id) is written in rounds: first the rows whose parent
 * is stored already or not in the file, then the rows below those, and so on, whatever the order of
 * the file. Its rows are held in memory meanwhile, which a users file allows; rows that never become
 * ready are in a cycle of the file's own rows.
 */
async function writeParentsFirst(
  writer: BatchWriter,
  spec: TableSpec,
  self: ReferenceSpec,
  held: PendingRow[],
  size: number,
): Promise<void> {
  const column = self.columns[0];
  const keyOfRow = (row: PendingRow) => keyOf(spec.key.map((c) => row.values[c]));
  const written = new Set<string>();
  const batch = new PendingBatch(writer, spec.key, size, (rows) => rows.forEach((row) => written.add(keyOfRow(row))));
  let pending = held;
  while (pending.length > 0) {
    const waiting = new Set(pending.map(keyOfRow));
    const ready = pending.filter((row) => {
      const parent = row.values[column];
      return parent === null || written.has(String(parent)) || !waiting.has(String(parent));
    });
    if (ready.length === 0) break;
    for (const row of ready) await batch.add(row);
    await batch.flush();
    const done = new Set(ready);
    pending = pending.filter((row) => !done.has(row));
  }
  for (const row of pending) {
    writer.rejectRow(row, [
      {
        column,
        reason: `'${row.values[column]}' cannot be loaded before this row: the ${column} values in this file form a cycle`,
      },
    ]);
  }
}
