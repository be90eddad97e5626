/**
 * Answers too large to build in memory (docs/behaviour.md, "Large answers"): cursors in one read-only
 * snapshot, handed on in their batches (a row at a time costs the event loop its turns). Whoever
 * receives one must read it to the end or close() it, which stops the cursors and ends the snapshot.
 */
import { sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema';
import { STREAM_BATCH_ROWS } from '../tunables';
import type { OperationResult, Row } from './types';

export type StreamedJson =
  | { kind: 'rows'; rows: () => AsyncIterable<readonly Row[]> }
  | { kind: 'object'; members: readonly (readonly [string, StreamedJson])[] }
  | { kind: 'value'; value: () => Row };

export class StreamedData {
  private closed = false;
  private readonly open = new Set<AsyncIterator<readonly Row[]>>();

  constructor(
    readonly body: StreamedJson,
    /** Counts the rows of array Data in the snapshot (Count of the envelope); undefined for object Data. */
    readonly count: (() => Promise<number>) | undefined,
    /** Totals of the envelope, once the rows have all been read. */
    readonly totals: (() => Record<string, number>) | undefined,
    private readonly end: () => Promise<void>,
  ) {}

  /** The batches of rows of one cursor of the body, tracked so that close() can stop it mid-way. */
  async *read(rows: () => AsyncIterable<readonly Row[]>): AsyncGenerator<readonly Row[]> {
    if (this.closed) throw new Error('The streamed answer is closed');
    const iterator = rows()[Symbol.asyncIterator]();
    this.open.add(iterator);
    try {
      for (;;) {
        const step = await iterator.next();
        if (step.done) return;
        yield step.value;
      }
    } finally {
      this.open.delete(iterator);
      await iterator.return?.();
    }
  }

  /** Stops every cursor still open and ends the snapshot; safe to call more than once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.open].map(async (iterator) => iterator.return?.().catch(() => undefined)));
    this.open.clear();
    await this.end();
  }
}

/**
 * How a caller takes streamed answers (OperationContext.streams): each waits for its turn before it
 * opens its snapshot, so that snapshots never take every connection or reader thread; turn() may
 * refuse by throwing, and what it gives back ends the turn.
 */
export interface Streams {
  turn(): Promise<() => void>;
}

type Build = (trx: Kysely<Database>, end: () => Promise<void>) => StreamedData | Promise<StreamedData>;

/** Builds the answer in a snapshot and returns it streamed, or read whole for a caller that takes no streams. */
export async function streamedResult(
  db: Kysely<Database>,
  streams: Streams | undefined,
  build: Build,
): Promise<OperationResult> {
  const data = await inSnapshot(db, streams, build);
  return streams ? { data } : drain(data);
}

/** The answer `build` makes in a read-only snapshot, opened in the caller's turn; closing it ends both. */
export async function inSnapshot(
  db: Kysely<Database>,
  streams: Streams | undefined,
  build: Build,
): Promise<StreamedData> {
  const endTurn = streams ? await streams.turn() : () => undefined;
  let trx: Awaited<ReturnType<typeof begin>>;
  try {
    trx = await begin(db);
  } catch (err) {
    endTurn();
    throw err;
  }
  const end = async () => {
    try {
      if (!trx.isCommitted && !trx.isRolledBack) await trx.rollback().execute();
    } finally {
      endTurn();
    }
  };
  try {
    return await build(trx, end);
  } catch (err) {
    await end();
    throw err;
  }
}

/** A read-only snapshot: its count and its rows see the same data. */
function begin(db: Kysely<Database>) {
  return db.startTransaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute();
}

/** Reads a streamed answer whole: the Data value and Totals it stands for. */
export async function drain(data: StreamedData): Promise<OperationResult> {
  try {
    const value = await drainJson(data, data.body);
    return data.totals ? { data: value, totals: data.totals() } : { data: value };
  } finally {
    await data.close();
  }
}

async function drainJson(data: StreamedData, part: StreamedJson): Promise<Row> {
  switch (part.kind) {
    case 'value':
      return part.value();
    case 'rows': {
      const rows: Row[] = [];
      for await (const batch of data.read(part.rows)) for (const row of batch) rows.push(row);
      return rows;
    }
    case 'object': {
      const object: Record<string, Row> = {};
      for (const [name, member] of part.members) object[name] = await drainJson(data, member);
      return object;
    }
  }
}

/**
 * The rows of `query` in the batches its cursor fetches, made into answer rows by `toRow`. Undefined
 * for a query that can select nothing (an empty list of officers, which SQL cannot write).
 */
export async function* rowBatches<R, T extends Row>(
  db: Kysely<Database>,
  query: Compilable<R> | undefined,
  toRow: (row: R) => T,
): AsyncGenerator<T[]> {
  if (query === undefined) return;
  for await (const part of db.getExecutor().stream<R>(query.compile(), STREAM_BATCH_ROWS)) yield part.rows.map(toRow);
}

/** How many rows `query` (a SELECT in raw SQL, without its ORDER BY) selects, in the snapshot `db`: a Count. */
export async function countRows(db: Kysely<Database>, query: RawBuilder<unknown> | undefined): Promise<number> {
  if (query === undefined) return 0;
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from (${query}) as counted`.execute(db);
  return Number(rows[0].n);
}
