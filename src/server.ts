/**
 * The running server: engine, migrations, demo data, the app, and listen on HOST:PORT (and METRICS_PORT).
 * It listens before the database is ready, answering 503 until then; stop() is the graceful shutdown
 * (docs/operations.md, "Timeouts and failures").
 */
import { sql } from 'kysely';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { createApp, type App } from './app';
import type { Settings } from './config';
import { openEngine, type Engine } from './db/engine';
import { migrate } from './db/migrate';
import { isEmpty } from './demo-data';
import { createLogger, type Logger } from './monitoring/logger';
import { InFlight } from './in-flight';
import { setAnswerHeaders } from './send';
import type { ServerState } from './monitoring/probes';
import { isOpsRequest, opsPathOf } from './monitoring/request-summary';
import { traceRequests } from './tracing/server-span';
import { httpServer, type ConnectionGuard } from './connections';
import { seedFirstStart, seedInChildProcess } from './process/seed-child';
import { collectDeadBuffers } from './process/dead-buffers';

export interface RunningServer {
  server: Server;
  engine: Engine;
  logger: Logger;
  /** http://host:port of the listening socket. */
  address: string;
  /** With METRICS_PORT: http://host:port of the metrics listener. */
  metricsAddress?: string;
  /** Stops accepting, lets open requests finish (within SHUTDOWN_TIMEOUT_MS), closes the database; forced: that time ran out and open requests were cut. */
  stop(): Promise<{ forced: boolean }>;
}

interface StartOptions {
  /** Seed an empty embedded database with scale-1 demo data (default: SEED_DEMO_DATA). */
  seedEmbedded?: boolean;
  /** This process runs the server's program (main.ts), which seeds by running itself again (seed-child.ts); otherwise it seeds in this process. */
  seedInChild?: boolean;
  /** Where the process's logger writes (stdout by default). */
  logDestination?: DestinationStream;
  /** A worker of WORKERS > 1 (cluster.ts). */
  clusterWorker?: boolean;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createLogger(settings, options.logDestination);
  // The pool's failures go to the log, once each.
  const engine = openEngine(settings.databaseUrl, {
    connectTimeoutMs: settings.dbConnectTimeoutMs,
    acquireTimeoutMs: settings.dbAcquireTimeoutMs,
    statementTimeoutMs: settings.dbStatementTimeoutMs,
    busyTimeoutMs: settings.dbBusyTimeoutMs,
    onPoolError: (message, error) => logger.warn({ err: error }, message),
  });
  let server: Server | undefined;
  let metricsServer: Server | undefined;
  try {
    const state: ServerState = { stopping: false, starting: true };
    const app = createApp({ settings, engine, logger, state, clusterMetrics: options.clusterWorker });
    await app.ready;
    server = await listen(
      traceRequests(startupGate(app, state), isOpsRequest),
      settings,
      settings.port,
      app.connections,
    );
    const metrics = app.metricsListener;
    if (metrics && settings.metricsPort !== undefined)
      metricsServer = await listen(metrics, settings, settings.metricsPort);
    const address = addressOf(server);
    const metricsAddress = metricsServer && addressOf(metricsServer);
    await waitForDatabase(engine, { timeoutMs: settings.dbStartupTimeoutMs, logger, context: { address } });
    await prepareDatabase(
      engine,
      settings,
      logger,
      options.seedEmbedded ?? settings.seedDemoData,
      options.seedInChild ?? false,
    );
    state.starting = false;
    const open = trackOpenResponses(server, state);
    const access = {
      auth: settings.authMode,
      rateLimitPerMinute: settings.rateLimitPerMinute,
      rateLimitStore: settings.rateLimitStore,
    };
    logger.info(
      { address, metricsAddress, basePath: settings.basePath, database: engine.describe, ...access },
      `listening on ${address}${settings.basePath}/API/`,
    );
    const running = server;
    const timings = { drainMs: settings.shutdownDrainMs, timeoutMs: settings.shutdownTimeoutMs };
    const metricsClosed = metricsServer;
    const stopCollecting = collectDeadBuffers();
    const release = () =>
      app
        .close()
        .then(stopCollecting)
        .then(() => closeNow(metricsClosed))
        .then(() => engine.close());
    return {
      server,
      engine,
      logger,
      address,
      metricsAddress,
      stop: once(() => stop(running, release, state, open, timings)),
    };
  } catch (err) {
    void closeNow(metricsServer);
    server?.closeAllConnections();
    server?.close();
    await engine.close().catch(() => undefined);
    throw err;
  }
}

function addressOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** What a client is told to wait before trying again while the server waits for its database. */
const STARTING_RETRY_AFTER_S = 5;

/** Until the database is ready only the probes are answered (/ready says 503); every other request gets 503. */
function startupGate(app: App, gate: ServerState): http.RequestListener {
  return (req, res) => {
    if (!gate.starting || opsPathOf(req.url ?? '') !== undefined) return void app(req, res);
    setAnswerHeaders(res);
    res.writeHead(503, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Retry-After': String(STARTING_RETRY_AFTER_S),
      Connection: 'close',
    });
    res.end('Service Unavailable: the server is starting and waits for its database.\r\n');
  };
}

/** Migrations (safe with many processes, see migrate.ts), then demo data for an empty embedded database. */
async function prepareDatabase(
  engine: Engine,
  settings: Settings,
  logger: Logger,
  seedEmbedded: boolean,
  inChild: boolean,
): Promise<void> {
  await migrate(engine);
  if (!seedEmbedded || engine.kind !== 'sqlite' || !(await isEmpty(engine))) return;
  const { summary, pid } = inChild
    ? await seedInChildProcess()
    : { summary: await seedFirstStart(engine, settings), pid: process.pid };
  if (summary)
    logger.info(
      { rows: summary.totalRows, asOf: summary.asOf, ms: summary.millis, seedPid: pid },
      'seeded the empty database with demo data',
    );
}

/** The metrics listener closes with the main one, its kept-alive scrape connections cut. */
function closeNow(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** `guard`: the main listener's ceiling on connections and its send timeout (the metrics listener has none). */
function listen(app: http.RequestListener, settings: Settings, port: number, guard?: ConnectionGuard): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = httpServer(app, settings, guard);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.listen(port, settings.host);
  });
}

/** Once the server stops, responses not yet begun answer Connection: close, so no client reuses a closing connection. */
function trackOpenResponses(server: Server, state: ServerState): InFlight<ServerResponse> {
  const open = new InFlight<ServerResponse>();
  // Ahead of the app, which may answer before a later listener runs.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (state.stopping) res.shouldKeepAlive = false;
    const id = open.add(res);
    res.once('close', () => open.take(id));
  });
  return open;
}

/** How often, while stopping, connections that became idle after their last answer are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * Keeps accepting for SHUTDOWN_DRAIN_MS while /ready says 503, then closes the listener; `release`:
 * what closes after the last connection (the app's rate-limit store, the database).
 */
async function stop(
  server: Server,
  release: () => Promise<void>,
  state: ServerState,
  open: InFlight<ServerResponse>,
  timings: { drainMs: number; timeoutMs: number },
): Promise<{ forced: boolean }> {
  state.stopping = true;
  for (const res of open.values()) if (!res.headersSent) res.shouldKeepAlive = false;
  await new Promise((resolve) => setTimeout(resolve, timings.drainMs));
  // The poll phase before setImmediate's callback accepts every connection the kernel completed
  // meanwhile (they would be reset if the listener closed with them still queued).
  await new Promise((resolve) => setImmediate(resolve));
  return closeListener(server, release, timings.timeoutMs);
}

function closeListener(server: Server, release: () => Promise<void>, timeoutMs: number): Promise<{ forced: boolean }> {
  return new Promise((resolve, reject) => {
    let forced = false;
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const force = setTimeout(() => {
      forced = true;
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      release().then(() => resolve({ forced }), reject);
    });
    server.closeIdleConnections();
  });
}

function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= run());
}

/**
 * At start the database may not be up yet: the server tries again with a growing pause for
 * DB_STARTUP_TIMEOUT_MS, but stops at once on what waiting cannot cure (a wrong password).
 * `context`: fields for every attempt's log line (the listening address, so a reader knows which server).
 */
type DatabaseWait = { timeoutMs: number; logger: Logger; context?: Record<string, unknown> };

const FIRST_PAUSE_MS = 250;
const LONGEST_PAUSE_MS = 5000;

/** Network failures, and PostgreSQL refusing connections while it starts, stops or is full. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
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
async function waitForDatabase(engine: Engine, wait: DatabaseWait): Promise<void> {
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
        throw new Error(
          `database ${engine.describe}: not reachable within DB_STARTUP_TIMEOUT_MS (${wait.timeoutMs} ms, ${attempt} attempts): ${cause}`,
        );
      }
      const pause = Math.min(left, LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (attempt - 1));
      wait.logger.warn(
        { ...wait.context, database: engine.describe, attempt, retryInMs: pause, error: cause },
        `the database ${engine.describe} is not reachable; trying again`,
      );
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join('; ');
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}
