/**
 * The PostgreSQL connection pool with every wait bounded (docs/operations.md, "Timeouts and
 * failures"): connect, acquire and statement, so a database that hangs gives each waiting request an
 * error within seconds instead of holding it, and the pool's connections, forever.
 */
import { Client, Pool, type ClientConfig, type PoolClient, type PoolConfig } from 'pg';

export interface PoolTimeouts {
  connectTimeoutMs: number;
  acquireTimeoutMs: number;
  /** 0: no statement timeout (batch jobs such as the importer). */
  statementTimeoutMs: number;
}

/** A failure of the pool worth a log line: what happened, the error, and whether a connection was dropped. */
export type PoolErrorReporter = (message: string, error: Error) => void;

/** How much later than PostgreSQL's own statement_timeout the client gives up on a silent server. */
const CLIENT_MARGIN_MS = 1000;
const MAX_CONNECTIONS = 10;

export function createPool(config: PoolConfig, timeouts: PoolTimeouts, onError: PoolErrorReporter): Pool {
  const readTimeoutMs = timeouts.statementTimeoutMs > 0 ? timeouts.statementTimeoutMs + CLIENT_MARGIN_MS : undefined;
  const pool = new Pool({
    ...config,
    max: MAX_CONNECTIONS,
    // pg-pool applies it to the whole acquisition: the wait in its queue and the connect of a new client.
    connectionTimeoutMillis: timeouts.acquireTimeoutMs,
    Client: clientClass(timeouts.connectTimeoutMs),
    statement_timeout: timeouts.statementTimeoutMs > 0 ? timeouts.statementTimeoutMs : undefined,
  });
  pool.on('error', (error) => onError('an idle database connection failed; it was dropped', error));
  pool.on('connect', (client) => discardOnReadTimeout(client, readTimeoutMs, onError));
  return pool;
}

/** pg.Client with its own connect timeout: the pool's connectionTimeoutMillis is the acquire timeout. */
function clientClass(connectTimeoutMs: number): NonNullable<PoolConfig['Client']> {
  return class TimedClient extends Client {
    constructor(config?: ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs });
    }
  };
}

type QueryCallback = (error: Error | null, result?: unknown) => void;
type AnyQuery = (...args: unknown[]) => unknown;

/** A query object of its own (pg-cursor, pg-query-stream): pg runs it as it is. */
function isSubmittable(value: unknown): value is { submit: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { submit?: unknown }).submit === 'function';
}

/** pg-cursor's read and close, in both their forms (Kysely's streams use the promises). */
interface CursorLike {
  read(rows: number, callback?: QueryCallback): unknown;
  close(callback?: (error?: Error) => void): unknown;
}

function isCursor(value: object): value is CursorLike {
  return (
    typeof (value as Partial<CursorLike>).read === 'function' &&
    typeof (value as Partial<CursorLike>).close === 'function'
  );
}

/**
 * pg answers a statement the server never answered with "Query read timeout" but keeps the
 * connection, still busy with it: this destroys the socket then, so the pool drops the client. A
 * cursor gets a timer of its own per read: pg never clears its read timer for a cursor.
 */
function discardOnReadTimeout(client: PoolClient, readTimeoutMs: number | undefined, onError: PoolErrorReporter): void {
  client.on('error', () => undefined);
  if (readTimeoutMs === undefined) return;
  const query = client.query.bind(client) as AnyQuery;
  const state = { discarded: false };
  const discard = (error: Error) => {
    if (state.discarded) return;
    state.discarded = true;
    onError('a database statement got no answer in time; its connection was discarded', error);
    destroySocket(client);
  };
  const onTimeout = (error: unknown) => {
    if (error instanceof Error && error.message === 'Query read timeout') discard(error);
  };
  const guarded: AnyQuery = (first, ...rest) => {
    if (isSubmittable(first)) {
      if (isCursor(first)) boundCursor(first, readTimeoutMs, state, discard);
      return query(first, ...rest);
    }
    const config =
      typeof first === 'string'
        ? { text: first, query_timeout: readTimeoutMs }
        : { ...(first as object), query_timeout: readTimeoutMs };
    const last = rest.at(-1);
    if (typeof last === 'function') {
      const callback = last as QueryCallback;
      rest[rest.length - 1] = (error: Error | null, result?: unknown) => {
        onTimeout(error);
        callback(error, result);
      };
      return query(config, ...rest);
    }
    const result = query(config, ...rest);
    if (result instanceof Promise) result.catch(onTimeout);
    return result;
  };
  (client as unknown as { query: AnyQuery }).query = guarded;
}

/**
 * A cursor read without an answer within readTimeoutMs discards the connection; a close then, or
 * after readTimeoutMs, is done without waiting for an answer that never comes.
 */
function boundCursor(
  cursor: CursorLike,
  readTimeoutMs: number,
  state: { discarded: boolean },
  discard: (error: Error) => void,
): void {
  const read = cursor.read.bind(cursor);
  const close = cursor.close.bind(cursor);
  cursor.close = (callback) => {
    const closed = state.discarded ? Promise.resolve() : boundedClose(close, readTimeoutMs, discard);
    if (!callback) return closed;
    closed.then(() => callback(), callback);
    return undefined;
  };
  cursor.read = (rows, callback) => {
    const timer = setTimeout(() => discard(new Error('Query read timeout')), readTimeoutMs);
    if (callback) {
      return read(rows, (error, result) => {
        clearTimeout(timer);
        callback(error, result);
      });
    }
    return Promise.resolve(read(rows)).finally(() => clearTimeout(timer));
  };
}

function boundedClose(
  close: CursorLike['close'],
  readTimeoutMs: number,
  discard: (error: Error) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      discard(new Error('Query read timeout'));
      resolve();
    }, readTimeoutMs);
    close((error) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** end() marks the client as ending, so the pool drops it on release; the socket closes without waiting. */
function destroySocket(client: PoolClient): void {
  client.end().catch(() => undefined);
  const { connection } = client as unknown as { connection?: { stream?: { destroy(): void } } };
  connection?.stream?.destroy();
}
