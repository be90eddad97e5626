/**
 * The messages between the main thread and an SQLite worker thread (docs/operations.md, "SQLite
 * on worker threads"). One worker owns one better-sqlite3 connection; the main thread lends a worker
 * to one user at a time (a query, a transaction or a cursor), so requests to a worker never overlap
 * except a `close` sent while a `next` is still under way (the worker answers them in order).
 *
 *   exec  -> rows (statements that return rows) or numAffectedRows/insertId (the others); a result of
 *            more than WORKER_MESSAGE_ROWS rows comes in parts: the first here with done = false, the
 *            rest through `next` as from a cursor, so the main thread takes it a part at a time.
 *   open  -> opens the worker's one cursor on a SELECT (better-sqlite3 iterate) and answers its first
 *            `max` rows as `next` does: a list that fits in one batch costs one message each way
 *   next  -> up to `max` further rows of the open cursor, done = true once it is exhausted (and closed)
 *   close -> closes the open cursor early (a client went away); a no-op when none is open
 *   stop  -> closes the connection; the worker then ends
 *
 * Rows travel as their column names once and each row as an array of values (RowBatch): the
 * structured clone of row objects costs more. The main thread builds the objects (worker-link.ts).
 */
/**
 * A worker thread's nice value: its queries give way to the event loop (the main thread, nice 0)
 * whenever it has a request to answer, and use the idle CPU otherwise.
 */
export const WORKER_NICE = 10;

export interface WorkerSettings {
  /** File name, or ':memory:'. */
  file: string;
  /** Absolute path of the better-sqlite3 module, so the worker loads the same copy. */
  driverPath: string;
  /** The connection that creates the database and sets journal_mode = WAL. */
  writer: boolean;
  /** How long a statement waits for a lock held by another connection or process (busy_timeout). */
  busyTimeoutMs: number;
  /** WORKER_MESSAGE_ROWS (the worker imports nothing of the project at run time). */
  partRows: number;
  /** WORKER_NICE: the thread's scheduling priority, below the event loop's. */
  nice: number;
}

export type WorkerRequest =
  | { id: number; op: 'exec'; sql: string; params: readonly unknown[] }
  | { id: number; op: 'open'; sql: string; params: readonly unknown[]; max: number }
  | { id: number; op: 'next'; max: number }
  | { id: number; op: 'close' }
  | { id: number; op: 'stop' };

export interface WorkerFailure {
  message: string;
  /** better-sqlite3's extended result code, e.g. SQLITE_CONSTRAINT_UNIQUE. */
  code?: string;
  name: string;
}

export interface RowBatch {
  columns: string[];
  values: unknown[][];
}

export type WorkerResponse =
  | { id: number; ok: true; rows?: RowBatch; numAffectedRows?: bigint; insertId?: bigint; done?: boolean }
  | { id: number; ok: false; error: WorkerFailure };

/** Posted once by a worker after its connection is open and set up. */
export type WorkerHello = { ready: true } | { ready: false; error: WorkerFailure };
