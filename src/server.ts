/**
 * The running server (architecture.md): database engine, migrations, demo data on a first start of
 * the embedded (SQLite) database (domain.md, "Demo data"), the contract check (createApp refuses a
 * WSDL that differs from the code), and listen on HOST:PORT with the timeouts of the settings.
 * main.ts adds the process around it (signals, WORKERS).
 *
 * stop() is the graceful shutdown: /ready turns 503, the listening socket closes, requests in flight
 * finish (their connections then close instead of idling in keep-alive), and after
 * SHUTDOWN_TIMEOUT_MS whatever is still open is cut; then the database closes.
 */
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { DestinationStream } from 'pino';
import { createApp, whenReady } from './app';
import type { Settings } from './config';
import { openEngine, type Engine } from './db/engine';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './db/seed';
import { createLogger, type Logger } from './ops/logger';
import type { ServerState } from './ops/probes';

export interface StopOutcome {
  /** True when SHUTDOWN_TIMEOUT_MS ran out and open requests were cut. */
  forced: boolean;
}

export interface RunningServer {
  server: Server;
  engine: Engine;
  logger: Logger;
  /** http://host:port of the listening socket. */
  address: string;
  /** Stops accepting, lets open requests finish (within SHUTDOWN_TIMEOUT_MS), closes the database. */
  stop(): Promise<StopOutcome>;
}

export interface StartOptions {
  /** Seed an empty embedded database with scale-1 demo data (default: SEED_DEMO_DATA). */
  seedEmbedded?: boolean;
  /** Migrate (and seed) before listening (default true); a cluster worker's primary has done it. */
  prepareDatabase?: boolean;
  /** The process's logger; by default one from LOG_LEVEL writing to logDestination (stdout). */
  logger?: Logger;
  logDestination?: DestinationStream;
  /** A worker of WORKERS > 1 (cluster.ts). */
  clusterWorker?: boolean;
}

export async function startServer(settings: Settings, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(settings, options.logDestination);
  const engine = openEngine(settings.databaseUrl);
  try {
    if (options.prepareDatabase ?? true) await prepareDatabase(engine, settings, logger, options.seedEmbedded ?? settings.seedDemoData);
    const state: ServerState = { stopping: false };
    const app = createApp({ settings, engine, logger, state, clusterMetrics: options.clusterWorker });
    await whenReady(app);
    const server = await listen(app, settings);
    const open = trackOpenResponses(server, state);
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    const access = { auth: settings.authMode, rateLimitPerMinute: settings.rateLimitPerMinute };
    logger.info({ address: `http://${host}:${port}`, basePath: settings.basePath, database: engine.describe, ...access }, `listening on http://${host}:${port}${settings.basePath}/API/`);
    return {
      server,
      engine,
      logger,
      address: `http://${host}:${port}`,
      stop: once(() => stop(server, engine, state, open, settings.shutdownTimeoutMs)),
    };
  } catch (err) {
    await engine.close().catch(() => undefined);
    throw err;
  }
}

/** Migrations (safe with many processes, see migrate.ts), then demo data for an empty embedded database. */
export async function prepareDatabase(engine: Engine, settings: Settings, logger: Logger, seedEmbedded: boolean): Promise<void> {
  await migrate(engine);
  if (!seedEmbedded || engine.kind !== 'sqlite') return;
  const summary = await seedIfEmpty(engine, { scale: 1, fiscalYearStartMonth: settings.fiscalYearStartMonth });
  if (summary) logger.info({ rows: summary.totalRows, asOf: summary.asOf, ms: summary.millis }, 'seeded the empty database with demo data');
}

function listen(app: Express, settings: Settings): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(
      {
        requestTimeout: settings.requestTimeoutMs,
        headersTimeout: settings.headersTimeoutMs,
        keepAliveTimeout: settings.keepAliveTimeoutMs,
      },
      app,
    );
    server.once('listening', () => resolve(server));
    server.once('error', reject);
    server.listen(settings.port, settings.host);
  });
}

/**
 * The responses not yet finished. Once the server stops, each one whose headers are still to be
 * written (and any request that arrives on a kept-alive connection) answers with Connection: close,
 * so a client or load balancer does not reuse a connection about to go away.
 */
function trackOpenResponses(server: Server, state: ServerState): Set<ServerResponse> {
  const open = new Set<ServerResponse>();
  // Ahead of the app, which may answer before a later listener runs.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (state.stopping) res.shouldKeepAlive = false;
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return open;
}

/** How often, while stopping, connections that became idle after their last answer are closed. */
const IDLE_SWEEP_MS = 100;

function stop(server: Server, engine: Engine, state: ServerState, open: Set<ServerResponse>, timeoutMs: number): Promise<StopOutcome> {
  state.stopping = true;
  for (const res of open) if (!res.headersSent) res.shouldKeepAlive = false;
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
      engine.close().then(() => resolve({ forced }), reject);
    });
    server.closeIdleConnections();
  });
}

function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= run());
}
