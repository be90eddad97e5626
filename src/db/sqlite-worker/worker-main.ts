/**
 * The body of an SQLite worker thread (protocol.ts): one better-sqlite3 connection running the main thread's
 * messages one at a time. It imports only Node's own modules at run time (the driver comes by path in
 * workerData), since under the tests' TypeScript sources this file alone is transpiled (worker-link.ts).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { RowBatch, WorkerFailure, WorkerHello, WorkerRequest, WorkerResponse, WorkerSettings } from './protocol';

type Connection = BetterSqlite3.Database;
type Row = unknown[];

const settings = workerData as WorkerSettings;
const port = parentPort!;

function open(): Connection {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the driver's path is known only at run time (workerData)
  const Database = require(settings.driverPath) as typeof BetterSqlite3;
  const db = new Database(settings.file);
  db.pragma(`busy_timeout = ${Math.trunc(settings.busyTimeoutMs)}`);
  if (settings.writer) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // SQLite's own page cache size rather than the driver's larger one: the connections' caches weighed on the
  // server's memory, and the OS keeps the file's pages cached anyway (docs/operations.md, "Memory").
  db.pragma('cache_size = -2000');
  if (!settings.writer) db.pragma('query_only = ON');
  return db;
}

function failure(err: unknown): WorkerFailure {
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  return { message: e.message, name: e.name, code: typeof code === 'string' ? code : undefined };
}

/** Buffers and Uint8Arrays arrive as Uint8Array; better-sqlite3 binds Buffers. */
function bindable(params: readonly unknown[]): unknown[] {
  return params.map((p) =>
    p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p,
  );
}

/** Statements kept prepared per connection; the least recently used goes first. */
const PREPARED_STATEMENTS = 256;

class Session {
  private cursor: IterableIterator<Row> | undefined;
  /** The open cursor's column names. */
  private cursorColumns: string[] = [];
  /** The same queries come again and again (every request of an operation): prepared once each. */
  private readonly prepared = new Map<string, BetterSqlite3.Statement>();

  constructor(private readonly db: Connection) {}

  handle(request: WorkerRequest): WorkerResponse {
    switch (request.op) {
      case 'exec':
        return { id: request.id, ok: true, ...this.exec(request.sql, request.params) };
      case 'open':
        this.openCursor(request.sql, request.params);
        return { id: request.id, ok: true, ...this.next(request.max) };
      case 'next':
        return { id: request.id, ok: true, ...this.next(request.max) };
      case 'close':
        this.closeCursor();
        return { id: request.id, ok: true, done: true };
      case 'stop':
        this.closeCursor();
        this.db.close();
        return { id: request.id, ok: true };
    }
  }

  private exec(
    sql: string,
    params: readonly unknown[],
  ): { rows?: RowBatch; numAffectedRows?: bigint; insertId?: bigint; done?: boolean } {
    if (this.cursor) throw new Error('A cursor is open on this connection');
    const statement = this.prepare(sql);
    if (statement.reader) {
      const rows = statement.all(bindable(params)) as Row[];
      const columns = columnNames(statement);
      if (rows.length <= settings.partRows) return { rows: { columns, values: rows } };
      // The rest waits as this connection's cursor; the main thread asks for it with `next`.
      this.cursor = rows.slice(settings.partRows)[Symbol.iterator]();
      this.cursorColumns = columns;
      return { rows: { columns, values: rows.slice(0, settings.partRows) }, done: false };
    }
    const { changes, lastInsertRowid } = statement.run(bindable(params));
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  private openCursor(sql: string, params: readonly unknown[]): void {
    if (this.cursor) throw new Error('A cursor is already open on this connection');
    const statement = this.prepare(sql);
    if (!statement.reader) throw new Error('Only statements that return rows can be streamed');
    this.cursor = statement.iterate(bindable(params)) as IterableIterator<Row>;
    this.cursorColumns = columnNames(statement);
  }

  /**
   * The statement for `sql`, prepared on first use, raw (RowBatch) when it returns rows. SQLite
   * prepares it again by itself after a schema change.
   */
  private prepare(sql: string): BetterSqlite3.Statement {
    const kept = this.prepared.get(sql);
    if (kept) {
      // Most recently used last: Map keeps insertion order.
      this.prepared.delete(sql);
      this.prepared.set(sql, kept);
      return kept;
    }
    const statement = this.db.prepare(sql);
    if (statement.reader) statement.raw(true);
    this.prepared.set(sql, statement);
    if (this.prepared.size > PREPARED_STATEMENTS) this.prepared.delete(this.prepared.keys().next().value as string);
    return statement;
  }

  private next(max: number): { rows?: RowBatch; done: boolean } {
    const cursor = this.cursor;
    if (!cursor) return { done: true };
    const columns = this.cursorColumns;
    const rows: Row[] = [];
    while (rows.length < max) {
      const step = cursor.next();
      if (step.done) {
        this.cursor = undefined;
        return { rows: { columns, values: rows }, done: true };
      }
      rows.push(step.value);
    }
    return { rows: { columns, values: rows }, done: false };
  }

  private closeCursor(): void {
    const cursor = this.cursor;
    this.cursor = undefined;
    cursor?.return?.();
  }
}

function columnNames(statement: BetterSqlite3.Statement): string[] {
  return statement.columns().map((c) => c.name);
}

function main(): void {
  // On Linux a thread's own priority (pid 0 is the calling thread).
  try {
    setPriority(0, settings.nice);
  } catch {
    // Not permitted here (some containers): the thread runs at the event loop's priority.
  }
  let session: Session;
  try {
    session = new Session(open());
  } catch (err) {
    port.postMessage({ ready: false, error: failure(err) } satisfies WorkerHello);
    return;
  }
  port.on('message', (request: WorkerRequest) => {
    let response: WorkerResponse;
    try {
      response = session.handle(request);
    } catch (err) {
      response = { id: request.id, ok: false, error: failure(err) };
    }
    port.postMessage(response);
    if (request.op === 'stop') port.close();
  });
  port.postMessage({ ready: true } satisfies WorkerHello);
}

main();
