/**
 * Every database test runs on every engine in one loop (style.md, Kysely): SQLite always, PostgreSQL
 * when TEST_DATABASE_URL is set. Each call gets a fresh, migrated, empty database: an in-memory SQLite
 * database, or a PostgreSQL schema of its own (so parallel jest workers never meet), dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { openEngine, type Engine, type EngineKind } from '../../src/db/engine';
import { migrate } from '../../src/db/migrate';

export const ENGINES: EngineKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export async function freshEngine(kind: EngineKind): Promise<Engine> {
  const engine = openEngine(kind === 'sqlite' ? 'sqlite::memory:' : withSchema(process.env.TEST_DATABASE_URL!));
  if (kind === 'postgres') {
    const close = engine.close;
    engine.close = async () => {
      await close();
      await dropSchema(engine.schema!);
    };
  }
  try {
    await migrate(engine);
  } catch (err) {
    await engine.close();
    throw err;
  }
  return engine;
}

function withSchema(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('schema', `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`);
  return url.toString();
}

async function dropSchema(schema: string): Promise<void> {
  const pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
  try {
    await pool.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await pool.end();
  }
}
