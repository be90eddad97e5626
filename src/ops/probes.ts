/**
 * The operational endpoints, at the root whatever BASE_PATH is (they never collide with /API/...):
 *   GET /health   200 {"status":"ok","pid":n} while the process runs (no database: a liveness probe);
 *   GET /ready    200 when the database answers a trivial query and every migration is applied,
 *                 503 {"status":"unavailable","reason":...} otherwise and while shutting down;
 *   GET /metrics  the Prometheus exposition (metrics.ts).
 */
import { Router, type Request, type Response } from 'express';
import { sql } from 'kysely';
import type { Engine } from '../db/engine';
import { isMigrated } from '../db/migrate';
import type { Logger } from './logger';
import { METRICS_CONTENT_TYPE } from './metrics';

/** What the server tells the probes; `stopping` turns /ready to 503 once shutdown begins. */
export interface ServerState {
  stopping: boolean;
  /** Set while the server waits for its database or prepares it (migrations, demo data). */
  starting?: boolean;
}

export interface ProbeOptions {
  engine: Engine;
  state: ServerState;
  logger: Logger;
  metricsText(): Promise<string>;
}

/** A readiness probe must answer quickly even when the database hangs. */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

export function probesRouter(options: ProbeOptions): Router {
  const router = Router({ strict: true });
  router.get('/health', (_req, res) => sendJson(res, 200, { status: 'ok', pid: process.pid }));
  router.get('/ready', readiness(options));
  router.get('/metrics', (_req, res) => {
    options.metricsText().then(
      (text) => res.status(200).set('Content-Type', METRICS_CONTENT_TYPE).send(text),
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics could not be gathered');
        sendJson(res, 503, { status: 'unavailable', reason: 'metrics could not be gathered' });
      },
    );
  });
  return router;
}

function readiness({ engine, state, logger }: ProbeOptions) {
  // Migrations only change at start; once every one is seen applied, the check is not repeated.
  let migrated = false;
  return async (_req: Request, res: Response) => {
    if (state.stopping) return unavailable(res, 'the server is shutting down');
    // The database may answer and be migrated while the demo data is still being written.
    if (state.starting) return unavailable(res, 'the server is starting');
    try {
      await withTimeout(sql`select 1`.execute(engine.db), DATABASE_CHECK_TIMEOUT_MS);
    } catch (error) {
      logger.warn({ err: error }, 'readiness: the database did not answer');
      return unavailable(res, 'the database does not answer');
    }
    if (!migrated) {
      try {
        migrated = await isMigrated(engine);
      } catch (error) {
        logger.warn({ err: error }, 'readiness: the migrations could not be read');
      }
      if (!migrated) return unavailable(res, 'the database migrations are not all applied');
    }
    sendJson(res, 200, { status: 'ready' });
  };
}

function unavailable(res: Response, reason: string): void {
  sendJson(res, 503, { status: 'unavailable', reason });
}

function sendJson(res: Response, status: number, body: Record<string, unknown>): void {
  res.status(status).set('Content-Type', 'application/json; charset=utf-8').set('Cache-Control', 'no-store').send(JSON.stringify(body));
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
