/**
 * Every database test runs on every engine in one loop: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set. Each call gets a fresh, migrated, empty database: an SQLite file of its
 * own in the temporary directory, served by the worker-thread engine the server uses (a writer and
 * two readers, so reads really run beside writes), removed on close; or a PostgreSQL schema of its
 * own (so parallel jest workers never meet).
 *
 * The PostgreSQL schemas are dropped together when the run ends (global-teardown.ts), in one pass.
 * The migrations of a schema read the tables of that schema only (src/db/pg-introspector.ts), so the
 * hundreds of schemas a run makes neither slow them down nor, dropped by another worker meanwhile,
 * make them fail (Kysely's own introspection read every schema of the database).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client, Pool } from 'pg';
import { openEngine, type Engine, type EngineKind, type EngineOptions } from '../../src/db/engine';
import { migrate } from '../../src/db/migrate';

export const ENGINES: EngineKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export async function freshEngine(kind: EngineKind): Promise<Engine> {
  const engine = emptyEngine(kind);
  try {
    await migrate(engine);
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}

/** A fresh engine of `kind` with no migration applied yet (a test of the migrations' data path). */
export function emptyEngine(kind: EngineKind): Engine {
  return kind === 'sqlite' ? temporarySqlite() : openEngine(withSchema(process.env.TEST_DATABASE_URL!));
}

/**
 * What `open` gives, for the enclosing describe block: opened before its tests, handed to `assign`,
 * prepared (`prepare`: the rows, the credentials its tests need), and closed after them.
 */
export function suiteOpened<T extends { close(): Promise<void> }>(
  open: () => Promise<T>,
  assign: (opened: T) => void,
  prepare: () => Promise<void> = () => Promise.resolve(),
): void {
  let opened: T | undefined;
  beforeAll(async () => {
    opened = await open();
    assign(opened);
    await prepare();
  });
  afterAll(() => opened?.close());
}

/** A fresh engine of `kind` for the enclosing describe block (suiteOpened). */
export function suiteEngine(kind: EngineKind, assign: (engine: Engine) => void, prepare?: () => Promise<void>): void {
  suiteOpened(() => freshEngine(kind), assign, prepare);
}

/** A worker-thread SQLite engine on a new file that is deleted (with its WAL) when it closes. */
export function temporarySqlite(options: EngineOptions = {}): Engine {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mobileapp-test-'));
  const engine = openEngine(`sqlite:${path.join(dir, 'test.db')}`, { sqliteReaders: 2, ...options });
  const close = () => engine.close();
  return {
    ...engine,
    close: async () => {
      try {
        await close();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * A statement committed by a connection of its own, as another process (an import, a manual fix) would:
 * `?` for each parameter, `{table}` for each table. On PostgreSQL the session keeps the default
 * search_path and names the table with its schema, as a fix typed into psql would.
 */
export async function commitElsewhere(engine: Engine, statement: string, params: unknown[]): Promise<void> {
  if (engine.kind === 'sqlite') {
    const other = new Database(engine.describe.slice('sqlite:'.length));
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare(statement.replace(/\{(\w+)\}/g, '$1')).run(...params);
    } finally {
      other.close();
    }
    return;
  }
  let n = 0;
  const text = statement.replace(/\{(\w+)\}/g, `"${engine.schema}".$1`).replace(/\?/g, () => `$${++n}`);
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

function withSchema(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', `${schemaPrefix(testRunId())}${randomBytes(4).toString('hex')}`);
  return url.toString();
}

/** Set by global-setup.ts for the whole run; a file run on its own outside jest's setup makes its own. */
function testRunId(): string {
  process.env.TEST_RUN_ID ??= newTestRunId();
  return process.env.TEST_RUN_ID;
}

/** The run's start time in base 36: what the teardown reads to find schemas of runs long gone. */
export function newTestRunId(): string {
  return Date.now().toString(36);
}

export function schemaPrefix(runId: string): string {
  return `t_${runId}_`;
}

/**
 * Drops this run's schemas, and those of runs that started more than two hours ago (a run that was
 * killed before its teardown), never those of another run still going on the same database.
 */
export async function dropTestSchemas(databaseUrl: string, runId: string): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname like 't\\_%'`,
    );
    const staleBefore = Date.now() - 2 * 60 * 60 * 1000;
    const doomed = rows
      .map((r) => r.nspname)
      .filter((name) => {
        const match = /^t_([0-9a-z]+)_[0-9a-f]+$/.exec(name);
        return match !== null && (match[1] === runId || parseInt(match[1], 36) < staleBefore);
      });
    for (const schema of doomed) await pool.query(`drop schema if exists "${schema}" cascade`);
    return doomed.length;
  } finally {
    await pool.end();
  }
}
