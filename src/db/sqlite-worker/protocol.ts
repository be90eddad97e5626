/**
 * The messages to and from an SQLite worker thread (docs/operations.md, "SQLite on worker threads"). A worker
 * serves one user at a time, so requests overlap only in a `close` sent during a `next`. A large result comes a
 * part per `next`; rows travel as column names once and arrays of values (RowBatch), cheaper to clone than objects.
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
