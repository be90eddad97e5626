/**
 * App assembly without listen (style.md): the two services, each at
 * <basePath>/API/<Service>.asmx with its documents (GET), SOAP (POST) and HTTP GET/POST bindings
 * (<path>/<op>). No global body parser: every binding reads its own body with its own limits.
 * In front of them: response compression as Accept-Encoding asks, the request log line and the
 * request metrics (src/ops), and the operational
 * endpoints /health, /ready and /metrics at the root. Ahead of each service's bindings, the optional
 * authentication and rate limiting (src/auth/access-guard.ts); its documents stay public.
 */
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { DestinationStream } from 'pino';
import type { Settings } from './config';
import type { Engine } from './db/engine';
import { systemClock, type Clock, type OperationContext } from './operations/types';
import type { Service } from './services/types';
import { createMobileAppService } from './services/mobile-app';
import { createSyncCustomersService } from './services/sync-customers';
import { accessGuard, type AccessControl } from './auth/access-guard';
import { createAuthenticator } from './auth/authenticator';
import { createRateLimiter } from './auth/rate-limiter';
import { assertContract, loadServiceDescription, type ServiceDescription } from './asmx/contract';
import { serviceEndpoint } from './asmx/service-endpoint';
import { soapRouter } from './asmx/soap';
import { sendPlainError, sendPlainServerError } from './asmx/plain-error';
import { annotate, annotateUnexpected } from './asmx/request-annotation';
import { clusterMetricsText, shareWithPrimary } from './ops/cluster-metrics';
import { createLogger, type Logger } from './ops/logger';
import { createAppMetrics, localMetricsText, processMetrics } from './ops/metrics';
import { probesRouter, type ServerState } from './ops/probes';
import { requestLogger } from './ops/request-log';
import { responseCompression } from './response-compression';

export interface AppOptions {
  settings: Settings;
  engine: Engine;
  clock?: Clock;
  /** The process's logger; by default one from settings.logLevel writing to logDestination. */
  logger?: Logger;
  /** Where a logger of the app's own writes (stdout by default). */
  logDestination?: DestinationStream;
  /** Shared with the server: /ready answers 503 once `stopping` is set. */
  state?: ServerState;
  /** A worker of WORKERS > 1: /metrics answers the sum over every worker (cluster-metrics.ts). */
  clusterMetrics?: boolean;
}

export function createServices(options: AppOptions): Service[] {
  const { settings, engine } = options;
  const context: OperationContext = {
    db: engine.db,
    engine,
    clock: options.clock ?? systemClock,
    settings: {
      dateOrder: settings.dateOrder,
      fiscalYearStartMonth: settings.fiscalYearStartMonth,
      maxFileBytes: settings.maxFileBytes,
      maxFilesPerRequest: settings.maxFilesPerRequest,
      maxRequestFilesBytes: settings.maxRequestFilesBytes,
    },
  };
  return [
    createMobileAppService({ namespace: settings.apiNamespace, context }),
    createSyncCustomersService({ namespace: settings.syncNamespace }),
  ];
}

/**
 * Throws ContractMismatchError when a WSDL and its service object differ (architecture.md: the
 * server refuses to start), so an app that exists always serves what its WSDL promises.
 */
export function createApp(appOptions: AppOptions): Express {
  const options = { ...appOptions, logger: appOptions.logger ?? createLogger(appOptions.settings, appOptions.logDestination) };
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(responseCompression());
  useOperationalEndpoints(app, options);
  const soapReady = useServices(app, options);
  app.use(notFound);
  app.use(unexpectedError);
  readiness.set(app, Promise.all(soapReady).then(() => undefined));
  return app;
}

/** The request log line and metrics of every request, then /health, /ready and /metrics (src/ops). */
function useOperationalEndpoints(app: Express, options: AppOptions): void {
  const { settings, engine } = options;
  const logger = options.logger ?? createLogger(settings, options.logDestination);
  const metrics = createAppMetrics(engine);
  if (options.clusterMetrics) shareWithPrimary([processMetrics(), metrics.registry]);
  app.use(requestLogger(logger));
  app.use(metrics.middleware);
  app.use(
    probesRouter({
      engine,
      logger,
      state: options.state ?? { stopping: false },
      metricsText: options.clusterMetrics ? clusterMetricsText : () => localMetricsText(metrics.registry),
    }),
  );
}

/** Each service's SOAP router and its documents/HTTP bindings; returns when their SOAP sides are ready. */
function useServices(app: Express, options: AppOptions & { logger: Logger }): Promise<void>[] {
  const { settings } = options;
  const soapReady: Promise<void>[] = [];
  const access = createAccessControl(options);
  closers.set(app, async () => access.limiter?.close());
  for (const service of createServices(options)) {
    const description = checkedDescription(service);
    const soap = soapRouter(service, description.wsdlTemplate, settings);
    soapReady.push(soap.ready);
    app.use(settings.basePath + service.path, accessGuard(service, settings, access));
    app.use(soap);
    app.use(settings.basePath + service.path, serviceEndpoint(service, description, settings));
  }
  return soapReady;
}

/**
 * AUTH_MODE and RATE_LIMIT_PER_MINUTE (docs/operations.md, "Authentication", "Rate limiting"): one
 * authenticator and one limiter for both services, so a client's requests to either count together.
 */
function createAccessControl(options: AppOptions & { logger: Logger }): AccessControl {
  const { settings, engine } = options;
  const clock = options.clock ?? systemClock;
  return {
    authenticate: settings.authMode === 'off' ? undefined : createAuthenticator(engine.db, clock),
    limiter: createRateLimiter(settings, engine, options.logger),
  };
}

const readiness = new WeakMap<Express, Promise<void>>();
const closers = new WeakMap<Express, () => Promise<void>>();

/** Lets go of what the app holds besides the engine (the rate-limit store's connection); the server calls it on stop. */
export function closeApp(app: Express): Promise<void> {
  return closers.get(app)?.() ?? Promise.resolve();
}

/**
 * Settles when both SOAP bindings have read their WSDL (soap.listen parses it asynchronously);
 * rejects when one cannot, so the server refuses to start instead of failing its first SOAP call.
 */
export function whenReady(app: Express): Promise<void> {
  return readiness.get(app) ?? Promise.resolve();
}

function checkedDescription(service: Service): ServiceDescription {
  const description = loadServiceDescription(service);
  assertContract(description, service);
  return description;
}

function notFound(_req: Request, res: Response): void {
  annotate(res, { outcome: 'not_found' });
  res.status(404).type('text/plain; charset=utf-8').send('Not Found\r\n');
}

/** Last resort: never a stack trace or an internal message to the client (style.md). */
function unexpectedError(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const status = (err as { status?: number }).status;
  if (res.headersSent) {
    annotateUnexpected(res, err);
    res.destroy();
    return;
  }
  if (status === 400 || status === 413) {
    annotate(res, { outcome: 'protocol_error' });
    sendPlainError(res, status, status === 413 ? 'Request entity too large.' : 'Bad request.');
    return;
  }
  annotateUnexpected(res, err);
  sendPlainServerError(res);
}
