/**
 * Engine selection: DATABASE_URL -> a Kysely instance over better-sqlite3 or pg.
 *
 * Everything engine-specific lives here, as data (column types, capabilities), so queries and
 * migrations have one code path (architecture.md, style.md: capabilities, not dialect branches).
 *
 *   sqlite:<file>        embedded database file (directories are created)
 *   sqlite::memory:      private in-memory database (tests)
 *   postgres://user[:password]@host[:port]/database[?schema=name]
 *                        PostgreSQL; `schema` puts every table in that schema (created if missing)
 */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Pool, types as pgTypes } from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema';

export type EngineKind = 'sqlite' | 'postgres';

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
  close(): Promise<void>;
}

export function openEngine(databaseUrl: string): Engine {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgres(databaseUrl);
  throw new Error(`DATABASE_URL: '${databaseUrl}' is not supported`);
}

function openSqlite(file: string): Engine {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    kind: 'sqlite',
    db,
    columnTypes: { date: 'date', timestamp: 'text', money: 'bigint', binary: 'blob' },
    multiProcess: false,
    describe: `sqlite:${file}`,
    close: () => db.destroy(),
  };
}

/** pg hands back int8/numeric as strings and dates as Date objects; the schema wants numbers and strings. */
const pgTypeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case pgTypes.builtins.INT8:
      case pgTypes.builtins.NUMERIC:
        return (value: string) => Number(value);
      case pgTypes.builtins.DATE:
        return (value: string) => value;
      case pgTypes.builtins.TIMESTAMPTZ:
        return (value: string) => new Date(value).toISOString();
      default:
        return pgTypes.getTypeParser(oid, format);
    }
  },
};

function openPostgres(databaseUrl: string): Engine {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`DATABASE_URL: schema '${schema}' must be a lower-case SQL identifier`);
  }
  const pool = new Pool({
    connectionString: url.toString(),
    max: 10,
    types: pgTypeParsers as never,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  url.password = url.password ? '***' : '';
  return {
    kind: 'postgres',
    db,
    columnTypes: { date: 'date', timestamp: 'timestamptz', money: 'bigint', binary: 'bytea' },
    multiProcess: true,
    describe: url.toString() + (schema ? ` (schema ${schema})` : ''),
    schema: schema ?? undefined,
    pool,
    close: () => db.destroy(),
  };
}
