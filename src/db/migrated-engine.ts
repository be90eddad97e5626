/**
 * How the command-line scripts (seed, import, users) reach the database: open DATABASE_URL, bring it
 * to the latest migration, do the work, and close it whatever happens. SQLite stays in this thread:
 * a script has no other requests to keep answering, and bulk loading would pay a message to a
 * worker thread per batch (docs/operations.md, "SQLite on worker threads").
 */
import { openEngine, type Engine } from './engine';
import { migrate } from './migrate';

export async function withMigratedEngine<T>(databaseUrl: string, work: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = openEngine(databaseUrl, { sqliteInProcess: true });
  try {
    await migrate(engine);
    return await work(engine);
  } finally {
    await engine.close();
  }
}
