/** /health, /ready and /metrics on Node's own request and response: polled while reports run, they skip Express. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sql } from 'kysely';
import type { Engine } from '../db/engine';
import { isMigrated } from '../db/migrate';
import { sendWhole } from '../send';
import type { Logger } from './logger';
import { METRICS_CONTENT_TYPE } from './metrics';
import { OPS_PATHS, type OpsPath } from './request-summary';

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
  /** Whether /metrics is answered with the probes (METRICS_PORT unset). */
  metricsHere: boolean;
  /** Who may read /metrics here: `serve` answers it (with authentication on, an ADMIN only: src/app.ts); by default anyone. */
  metricsGate?: (req: IncomingMessage, res: ServerResponse, serve: () => void) => void;
}

/** A readiness probe must answer quickly even when the database hangs. */
const DATABASE_CHECK_TIMEOUT_MS = 2000;

/** A probe's answer, given Node's own request and response. */
export type Probe = (req: IncomingMessage, res: ServerResponse) => void;

/** The probe of a GET or HEAD to one of OPS_PATHS (`lowerPath`: the path in lower case, no query). */
export type ProbeFor = (method: string | undefined, lowerPath: string) => Probe | undefined;

export function probes(options: ProbeOptions): ProbeFor {
  const answers: Record<OpsPath, Probe | undefined> = {
    '/health': (_req, res) => sendJson(res, 200, { status: 'ok' }),
    '/ready': readiness(options),
    '/metrics': options.metricsHere ? gated(metricsProbe(options), options.metricsGate) : undefined,
  };
  const byPath = new Map<string, Probe | undefined>(OPS_PATHS.map((path) => [path, answers[path]]));
  return (method, lowerPath) => (method === 'GET' || method === 'HEAD' ? byPath.get(lowerPath) : undefined);
}

/** GET /metrics, wherever it is served. */
export function metricsProbe(options: Pick<ProbeOptions, 'logger' | 'metricsText'>): Probe {
  return (_req, res) => {
    options.metricsText().then(
      (text) => sendWhole(res, 200, METRICS_CONTENT_TYPE, text),
      (error: unknown) => {
        options.logger.error({ err: error }, 'metrics could not be gathered');
        sendJson(res, 503, { status: 'unavailable', reason: 'metrics could not be gathered' });
      },
    );
  };
}

function gated(probe: Probe, gate: ProbeOptions['metricsGate']): Probe {
  return gate === undefined ? probe : (req, res) => gate(req, res, () => probe(req, res));
}

function readiness({ engine, state, logger }: ProbeOptions): Probe {
  // Migrations only change at start; once every one is seen applied, the check is not repeated.
  let migrated = false;
  const check = async (res: ServerResponse) => {
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
  return (_req, res) => void check(res);
}

function unavailable(res: ServerResponse, reason: string): void {
  sendJson(res, 503, { status: 'unavailable', reason });
}

function sendJson(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  sendWhole(res, status, 'application/json; charset=utf-8', JSON.stringify(body), 'no-store');
}

/** `work`, or a rejection after `ms` (the database's or a shared store's answer must not be waited for forever). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
