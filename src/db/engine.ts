/**
 * Engine selection: DATABASE_URL -> a Kysely instance over better-sqlite3 or pg. The engines differ
 * here, as data (column types, capabilities), so queries and migrations have one code path.
 * `postgres://...?schema=name` puts every table in that schema (created if missing).
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { types as pgTypes, type Pool } from 'pg';
import Cursor from 'pg-cursor';
import { Kysely, SqliteDialect } from 'kysely';
import { SqliteWorkerDialect } from './sqlite-worker/dialect';
import type { WorkerPool } from './sqlite-worker/worker-pool';
import { createPool, type PoolErrorReporter, type PoolTimeouts } from './pg-pool';
import { SchemaPostgresDialect } from './pg-introspector';
import { redactedUrl } from '../config';
import type { Database } from './schema';
import { postgresDataVersion, sqliteDataVersion, type DataVersion } from './table-versions';

export type EngineKind = 'sqlite' | 'postgres';

/** Snapshots open at once on PostgreSQL: a few of the pool's connections, the rest for short reads and writes. */
const POSTGRES_SNAPSHOT_TURNS = 2;

/** Column types as each engine spells them. */
export interface ColumnTypes {
  date: 'date';
  timestamp: 'text' | 'timestamptz';
  money: 'bigint';
  binary: 'blob' | 'bytea';
}

export interface Engine {
  kind: EngineKind;
  db: Kysely<Database>;
  columnTypes: ColumnTypes;
  /** Several processes may write at once (PostgreSQL); SQLite is one writer process. */
  multiProcess: boolean;
  /** PostgreSQL schema the tables live in, when DATABASE_URL names one (created by migrate). */
  schema?: string;
  /** A short description for logs, without any password. */
  describe: string;
  /** The PostgreSQL connection pool (its counts are exported as metrics); absent for SQLite. */
  pool?: Pool;
  /** SQLite's worker threads (sqlite-worker/worker-pool.ts); absent in process and for PostgreSQL. */
  sqliteWorkers?: WorkerPool;
  /**
   * How many read snapshots (streamed answers) may be open at once: the rest of the reader threads or
   * pool connections stay free for short reads however many large answers are asked for.
   */
  snapshotTurns: number;
  /** The tables' versions (table-versions.ts); absent where nothing can see other writers (':memory:'). */
  dataVersion?: DataVersion;
  close(): Promise<void>;
}

export function openEngine(databaseUrl: string, options: EngineOptions = {}): Engine {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length), options);
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgres(databaseUrl, options);
  throw new Error(`DATABASE_URL: '${redactedUrl(databaseUrl)}' is not supported`);
}

/**
 * Options of the engines; each takes the ones that concern it. PostgreSQL's bounded waits (PoolTimeouts):
 * without them (the scripts) statements run as long as they need.
 */
export interface EngineOptions extends Partial<PoolTimeouts> {
  // SQLite: the server uses worker threads (docs/operations.md); bulk loaders may stay in process.
  /** Run queries in this thread (the bulk-loading scripts); default: on worker threads. */
  sqliteInProcess?: boolean;
  /** Reader threads beside the one writer (default 2; ':memory:' has none). */
  sqliteReaders?: number;
  /** SQLite's busy_timeout (DB_BUSY_TIMEOUT_MS; default 5000). */
  busyTimeoutMs?: number;
  /** Where failures of the pool's connections are reported (once each); by default nowhere. */
  onPoolError?: PoolErrorReporter;
}

const SQLITE_COLUMN_TYPES: ColumnTypes = { date: 'date', timestamp: 'text', money: 'bigint', binary: 'blob' };

function openSqlite(file: string, options: EngineOptions): Engine {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (options.sqliteInProcess) return openSqliteInProcess(file, options.busyTimeoutMs ?? 5000);
  const readers = options.sqliteReaders ?? 2;
  const dialect = new SqliteWorkerDialect({
    file,
    readers,
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    acquireTimeoutMs: options.acquireTimeoutMs ?? 10_000,
  });
  // Snapshots may take every reader: short reads then run on the writer (worker-pool.ts). ':memory:'
  // has its writer only, which snapshots share.
  const snapshotTurns = file === ':memory:' ? 1 : Math.max(1, readers);
  return sqliteEngine(file, new Kysely<Database>({ dialect }), snapshotTurns, dialect.pool, sqliteDataVersion(file));
}

function openSqliteInProcess(file: string, busyTimeoutMs: number): Engine {
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  return sqliteEngine(file, new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), 1);
}

function sqliteEngine(
  file: string,
  db: Kysely<Database>,
  snapshotTurns: number,
  sqliteWorkers?: WorkerPool,
  dataVersion?: DataVersion,
): Engine {
  const close = async () => {
    dataVersion?.close();
    await db.destroy();
  };
  return {
    kind: 'sqlite',
    db,
    columnTypes: SQLITE_COLUMN_TYPES,
    multiProcess: false,
    describe: `sqlite:${file}`,
    snapshotTurns,
    sqliteWorkers,
    dataVersion,
    close,
  };
}

type PgTypeId = (typeof pgTypes.builtins)[keyof typeof pgTypes.builtins];

/** pg hands back int8/numeric as strings and dates as Date objects; the schema wants numbers and strings. */
const pgTypeParsers = {
  getTypeParser(oid: PgTypeId, format?: 'text' | 'binary'): (value: string) => unknown {
    switch (oid) {
      case pgTypes.builtins.INT8:
      case pgTypes.builtins.NUMERIC:
        return (value: string) => Number(value);
      case pgTypes.builtins.DATE:
        return (value: string) => value;
      case pgTypes.builtins.TIMESTAMPTZ:
        return (value: string) => new Date(value).toISOString();
      default:
        return pgTypes.getTypeParser(oid, format) as (value: string) => unknown;
    }
  },
};

function openPostgres(databaseUrl: string, options: EngineOptions): Engine {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`DATABASE_URL: schema '${schema}' must be a lower-case SQL identifier`);
  }
  const config = {
    connectionString: url.toString(),
    types: pgTypeParsers as never,
    options: schema ? `-c search_path=${schema}` : undefined,
  };
  const timeouts = {
    connectTimeoutMs: options.connectTimeoutMs ?? 5000,
    acquireTimeoutMs: options.acquireTimeoutMs ?? 10_000,
    statementTimeoutMs: options.statementTimeoutMs ?? 0,
  };
  // A connection that fails must not take the process down: pg-pool.ts drops it and reports it.
  const pool = createPool(config, timeouts, options.onPoolError ?? (() => undefined));
  const db = new Kysely<Database>({
    dialect: new SchemaPostgresDialect({ pool, cursor: Cursor }, schema ?? undefined),
  });
  return {
    kind: 'postgres',
    db,
    columnTypes: { date: 'date', timestamp: 'timestamptz', money: 'bigint', binary: 'bytea' },
    multiProcess: true,
    describe: redactedUrl(url.toString()) + (schema ? ` (schema ${schema})` : ''),
    schema: schema ?? undefined,
    pool,
    // As many as SQLite's: streamed answers are made on the event loop, so more at once only share it.
    snapshotTurns: POSTGRES_SNAPSHOT_TURNS,
    dataVersion: postgresDataVersion(pool),
    close: () => db.destroy(),
  };
}
