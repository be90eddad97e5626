/**
 * At start the database may not be up yet: the server tries again with a growing pause for
 * DB_STARTUP_TIMEOUT_MS, but stops at once on what waiting cannot cure (a wrong password).
 */
import { sql } from 'kysely';
import type { Engine } from '../db/engine';
import type { Logger } from '../ops/logger';

/** `context`: fields for every attempt's log line (the listening address, so a reader knows which server). */
type DatabaseWait = { timeoutMs: number; logger: Logger; context?: Record<string, unknown> };

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5000;

/** Network failures, and PostgreSQL refusing connections while it starts, stops or is full. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006',
]);
const TRANSIENT_MESSAGE = /timeout|Connection terminated|ECONNREFUSED/i;

function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isTransient);
  return TRANSIENT_MESSAGE.test(error.message);
}

/** Resolves once the database answers `select 1`; rejects with an error naming the database and the cause. */
export async function waitForDatabase(engine: Engine, wait: DatabaseWait): Promise<void> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(engine.db);
      if (attempt > 1) wait.logger.info({ database: engine.describe, attempt }, 'the database answers');
      return;
    } catch (error) {
      const cause = describeError(error);
      if (!isTransient(error)) throw new Error(`database ${engine.describe}: ${cause}`);
      const left = wait.timeoutMs - (Date.now() - started);
      if (left <= 0) {
        throw new Error(`database ${engine.describe}: not reachable within DB_STARTUP_TIMEOUT_MS (${wait.timeoutMs} ms, ${attempt} attempts): ${cause}`);
      }
      const pause = Math.min(left, LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (attempt - 1));
      wait.logger.warn({ ...wait.context, database: engine.describe, attempt, retryInMs: pause, error: cause }, `the database ${engine.describe} is not reachable; trying again`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join('; ');
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}
