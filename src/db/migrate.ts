/**
 * Migrations, applied at start (and by the seed script). Kysely's migrator keeps its own lock
 * table, so several processes starting together on one PostgreSQL apply each migration once.
 */
import { inspect } from 'node:util';
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { openEngine, type Engine } from './engine';
import { isUniqueViolation } from './unique-violation';
import * as initial from './migrations/0001_initial';
import * as auth from './migrations/0002_auth';
import * as summaries from './migrations/0003_report_summaries';
import * as listIndexes from './migrations/0004_list_indexes';
import * as tableVersions from './migrations/0005_table_versions';
import * as warrantyCustomerIndex from './migrations/0006_warranty_customer_index';
import * as clientRequestPerOfficer from './migrations/0007_client_request_per_officer';

const MIGRATIONS = {
  '0001_initial': initial,
  '0002_auth': auth,
  '0003_report_summaries': summaries,
  '0004_list_indexes': listIndexes,
  '0005_table_versions': tableVersions,
  '0006_warranty_customer_index': warrantyCustomerIndex,
  '0007_client_request_per_officer': clientRequestPerOfficer,
} as const;

class StaticMigrations implements MigrationProvider {
  constructor(private readonly engine: Engine) {}

  getMigrations(): Promise<Record<string, Migration>> {
    const types = this.engine.columnTypes;
    return Promise.resolve(
      Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db) => m.up(db, types) }])),
    );
  }
}

function migrator(engine: Engine): Migrator {
  return new Migrator({
    db: engine.db,
    provider: new StaticMigrations(engine),
    // Without it Kysely looks for its lock table in every schema of the database, and a second
    // deployment (or test run) in another schema would make it skip creating its own.
    migrationTableSchema: engine.schema,
  });
}

export type MigrationName = keyof typeof MIGRATIONS;

/** Applies the migrations not yet applied; up to and including `upTo` only when given (tests of a migration's data path). */
export async function migrate(engine: Engine, upTo?: MigrationName): Promise<void> {
  if (engine.schema) {
    try {
      await sql`create schema if not exists ${sql.id(engine.schema)}`.execute(engine.db);
    } catch (err) {
      // Two processes creating the same schema at once: the loser sees a unique violation.
      if (!isUniqueViolation(err)) throw err;
    }
  }
  const { error, results } = await (upTo === undefined
    ? migrator(engine).migrateToLatest()
    : migrator(engine).migrateTo(upTo));
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : inspect(error)}`);
  }
}

/** True when every migration this build knows has been applied (the /ready check). */
export async function isMigrated(engine: Engine): Promise<boolean> {
  const migrations = await migrator(engine).getMigrations();
  return migrations.every((m) => m.executedAt !== undefined);
}

/**
 * How the command-line scripts reach the database: open it, migrate, work, close. SQLite stays in
 * this thread: bulk loading would pay a message to a worker thread per batch.
 */
export async function withMigratedEngine<T>(databaseUrl: string, work: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = openEngine(databaseUrl, { sqliteInProcess: true });
  try {
    await migrate(engine);
    return await work(engine);
  } finally {
    await engine.close();
  }
}
