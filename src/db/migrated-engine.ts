/**
 * How the command-line scripts reach the database: open it, migrate, work, close. SQLite stays in
 * this thread: bulk loading would pay a message to a worker thread per batch.
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
