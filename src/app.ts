/**
 * The app without listen (docs/architecture.md): its dispatcher hands the probes and the bindings'
 * requests to their handlers and everything else to Express. No global body parser: every binding
 * reads its own body with its own limits.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import express, { type NextFunction } from 'express';
import type { DestinationStream } from 'pino';
import type { Settings } from './config';
import type { Engine } from './db/engine';
import { systemClock, type Clock, type Operation, type OperationContext } from './operations/types';
import type { Service } from './services/types';
import { createMobileAppService, createSyncCustomersService } from './services/mobile-app';
import { AnswerCache } from './services/answer-cache';
import { accessGuard, type AccessControl, type AccessGuard } from './auth/access-guard';
import { plainRefusals, soapRefusals } from './asmx/access-refusals';
import { createAuthenticator } from './auth/authenticator';
import { createLoginThrottle, createRateLimiter, openCountStore, type CountStore } from './auth/rate-limiter';
import { assertContract, loadServiceDescription, type ServiceDescription } from './asmx/contract';
import { httpBindings, serviceDocuments } from './asmx/service-endpoint';
import { methodNotAllowed, soapBinding, type SoapBinding } from './asmx/soap';
import type { HttpKind } from './asmx/http';
import { classifyHead, serviceTable, type ServiceTable } from './classifier';
import { sendPlainError, sendPlainServerError } from './asmx/plain-error';
import { annotate, annotateUnexpected, setRequestKind } from './request-context/annotation';
import { asBindingExchange, type BindingRequest, type BindingResponse } from './request-context/exchange';
import { createLogger, requestLogger, type Logger } from './monitoring/logger';
import {
  clusterMetricsText,
  createAppMetrics,
  localMetricsText,
  processMetrics,
  shareWithPrimary,
} from './monitoring/metrics';
import {
  metricsProbe,
  probes,
  type Probe,
  type ProbeFor,
  type ProbeOptions,
  type ServerState,
} from './monitoring/probes';
import { opsPathOf } from './monitoring/request-summary';
import { bindingCompression, responseCompression } from './response-compression';
import { HTTP_TEXT } from './protocol-texts';
import { apiDocs, openApiDocument } from './asmx/http/openapi';
import { sendWhole, setAnswerHeaders } from './send';
import { MAX_KEPT_ANSWER_BYTES } from './tunables';
import { SpoolStore } from './asmx/answer-spool';
import type { Delivery } from './asmx/delivery';
import { StreamLimit } from './auth/stream-limit';
import { ConnectionGuard } from './connections';

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
  /** A worker of WORKERS > 1: /metrics answers the sum over every worker (ops/metrics.ts, clusterMetricsText). */
  clusterMetrics?: boolean;
  /**
   * The main service's operations, the registry's by default: an embedder (or a test) serves its own
   * list, with WSDL files that list them under `wsdlRoot`, since the start-up check holds for them too.
   */
  operations?: readonly Operation[];
  /** The folder holding the wsdl/ the services are described by; the project's by default. */
  wsdlRoot?: string;
}

function answerCacheOf(settings: Settings): AnswerCache {
  return new AnswerCache({
    maxBytes: settings.answerCacheBytes,
    maxEntryBytes: Math.min(MAX_KEPT_ANSWER_BYTES, settings.answerCacheBytes / 4),
  });
}

/** `answers`: where the main service keeps whole answers of reads (one cache for the legacy and v2 services). */
export function createServices(options: AppOptions, answers: AnswerCache = answerCacheOf(options.settings)): Service[] {
  const { settings, engine, operations, wsdlRoot } = options;
  const context: OperationContext = { db: engine.db, engine, clock: options.clock ?? systemClock, settings };
  const legacy = [
    createMobileAppService({ namespace: settings.apiNamespace, context, answers, operations, wsdlRoot }),
    createSyncCustomersService({ namespace: settings.syncNamespace, wsdlRoot }),
  ];
  if (!settings.v2Contract) return legacy;
  return [
    ...legacy,
    createMobileAppService({
      namespace: settings.apiV2Namespace,
      context,
      contract: 'v2',
      answers,
      operations,
      wsdlRoot,
    }),
    createSyncCustomersService({ namespace: settings.syncV2Namespace, contract: 'v2', wsdlRoot }),
  ];
}

/** What the server's listener calls for every request (the dispatcher), with what the server needs beside it. */
export interface App extends RequestListener {
  /** Settles when the soap library has read every WSDL; rejects when it cannot, so the server refuses to start. */
  readonly ready: Promise<void>;
  /** With METRICS_PORT, what answers on that port; the server listens there with it. */
  readonly metricsListener?: RequestListener;
  /** The ceiling on open connections and the send timeout: the server watches its main listener with it. */
  readonly connections: ConnectionGuard;
  /** Lets go of what the app holds besides the engine (the rate-limit store's connection); the server calls it on stop. */
  close(): Promise<void>;
}

/** Throws ContractMismatchError when a WSDL and its service object differ: the server refuses to start. */
export function createApp(appOptions: AppOptions): App {
  const options = {
    ...appOptions,
    logger: appOptions.logger ?? createLogger(appOptions.settings, appOptions.logDestination),
  };
  const { settings, engine, logger } = options;
  const answers = answerCacheOf(settings);
  const delivery: Delivery = {
    spool: new SpoolStore(settings.spoolDir, settings.spoolMaxBytes),
    streams: new StreamLimit({
      perAddress: settings.maxStreamsPerAddress,
      turns: engine.snapshotTurns,
      waitMs: settings.dbAcquireTimeoutMs,
      trustProxy: settings.trustProxy,
    }),
  };
  const connections = new ConnectionGuard(settings);
  const metrics = createAppMetrics(engine, answers.counts, { connections, spool: delivery.spool });
  if (options.clusterMetrics) shareWithPrimary([processMetrics(), metrics.registry]);
  const counts = openCountStore(settings, engine, logger);
  const access = createAccessControl(options, counts);
  const services = createServices(options, answers).map((service): ServedService => {
    const description = loadServiceDescription(service);
    assertContract(description, service);
    const soap = soapBinding(service, description.wsdlTemplate, settings, delivery);
    return { service, description, soap, http: httpBindings(service, settings, delivery) };
  });
  const metricsText = options.clusterMetrics ? clusterMetricsText : () => localMetricsText(metrics.registry);
  const metricsHere = settings.metricsPort === undefined;
  const probeFor = probes({
    engine,
    logger,
    state: options.state ?? { stopping: false },
    metricsText,
    metricsHere,
    metricsGate: metricsHere ? adminsOnly(settings, access) : undefined,
  });
  const destinations = {
    table: serviceTable(
      settings.basePath,
      services.map(({ service }) => service),
    ),
    served: new Map(services.map((served) => [served.service, served])),
    guard: accessGuard(settings, access),
  };
  return Object.assign(
    dispatcher([requestLogger(logger), metrics.middleware], probeFor, destinations, routedApp(settings, services)),
    {
      ready: Promise.all(services.map(({ soap }) => soap.ready)).then(() => undefined),
      metricsListener:
        settings.metricsPort === undefined ? undefined : metricsListener(metricsProbe({ logger, metricsText })),
      connections,
      close: () => counts.close(),
    },
  );
}

/** One service as the app serves it. */
interface ServedService {
  service: Service;
  description: ServiceDescription;
  soap: SoapBinding;
  http: (req: BindingRequest, res: BindingResponse, kind: HttpKind) => void;
}

/** What the dispatcher hands requests to: the services by their classification, and the access guard (none when nothing is checked). */
interface Destinations {
  table: ServiceTable<Service>;
  served: ReadonlyMap<Service, ServedService>;
  guard: AccessGuard | undefined;
}

/** Express, for what the dispatcher does not take: the documents, the OpenAPI document and pages, other paths, the last-resort error. */
function routedApp(settings: Settings, services: readonly ServedService[]): RequestListener {
  const routed = express();
  routed.disable('x-powered-by');
  routed.disable('etag');
  routed.use(responseCompression());
  // The JSON bindings are the legacy contract's; v2 answers XML, described by its WSDL.
  // With PUBLIC_URL the server is named whole; otherwise relative to the document, never from a request header.
  const serverUrl = (settings.publicUrl ?? '') + settings.basePath;
  const openApi = JSON.stringify(
    openApiDocument(
      services.map(({ service }) => service).filter((s) => s.contract === 'legacy'),
      serverUrl,
      settings.dateOrder,
    ),
  );
  routed.get(`${settings.basePath}/API/openapi.json`, (_req, res) =>
    sendWhole(res, 200, 'application/json; charset=utf-8', openApi, 'private, max-age=0'),
  );
  routed.use(apiDocs(settings));
  // The dispatcher hands over only GETs of a service's path (the documents) and what is under no service.
  for (const { service, description } of services)
    routed.get(settings.basePath + service.path, serviceDocuments(service, description, settings));
  routed.use(notFound);
  routed.use(unexpectedError);
  return routed;
}

/** A handler on the bindings' way in: Node's request and response with the shared fields (request-context/exchange.ts). */
type Handler = (req: BindingRequest, res: BindingResponse, next: (error?: unknown) => void) => void;

/**
 * The dispatcher (docs/operations.md, "Request path"): classifies every request once (src/classifier)
 * and keeps the result on res.locals for the guard, the bindings, the log line, the metrics and the
 * spans. The probes and the bindings' requests go straight to their handlers as Node's own objects:
 * Express sets its prototypes on every request it routes, which slows every later access to them.
 */
function dispatcher(
  root: readonly Handler[],
  probeFor: ProbeFor,
  destinations: Destinations,
  routed: RequestListener,
): RequestListener {
  // The bindings' answers are all compressible, the probes' too: compression in its form for them.
  const direct = [bindingCompression(), ...root];
  return (req, res) => {
    setAnswerHeaders(res);
    asBindingExchange(req, res);
    const response = res as BindingResponse;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const probe = probeFor(req.method, (query === -1 ? url : url.slice(0, query)).toLowerCase());
    if (probe) return throughRoot(direct, req, response, () => probe(req, res));
    const kind = classifyHead(destinations.table, req.method, url, req.headers);
    setRequestKind(response, kind);
    if (kind.kind === 'document' || kind.kind === 'none')
      return throughRoot(root, req, response, () => routed(req, res));
    throughRoot(direct, req, response, (fail) => {
      if (kind.kind === 'method') return methodNotAllowed(response);
      const served = destinations.served.get(kind.service)!;
      const run =
        kind.kind === 'soap' ? () => served.soap.answer(req, response, kind) : () => served.http(req, response, kind);
      // Only a call of an operation is judged; any other method under the .asmx is refused without it.
      if (!destinations.guard || kind.binding === 'other') return run();
      destinations.guard(
        req,
        response,
        kind.kind === 'soap' ? soapRefusals(response, kind.version) : plainRefusals(response),
        (error?: unknown) => (isError(error) ? fail(error) : run()),
      );
    });
  };
}

/** The root handlers one after the other, then `last`; an error (passed on, or thrown at once) is answered as the router answers it. */
function throughRoot(
  root: readonly Handler[],
  req: BindingRequest,
  res: BindingResponse,
  last: (fail: (error: unknown) => void) => void,
): void {
  const fail = (error: unknown) => unexpectedError(error, req, res, () => undefined);
  let step = 0;
  const proceed = (error?: unknown) => {
    if (isError(error)) return fail(error);
    const handler = root[step++];
    if (handler) return handler(req, res, proceed);
    last(fail);
  };
  try {
    proceed();
  } catch (error) {
    fail(error);
  }
}

/** One authenticator, throttle and limiter for both services, so a client's requests to either count together. */
function createAccessControl(options: AppOptions, counts: CountStore): AccessControl {
  const { settings, engine } = options;
  const clock = options.clock ?? systemClock;
  const limiter = createRateLimiter(settings, counts);
  if (settings.authMode === 'off') return { limiter };
  return { authenticate: createAuthenticator(engine.db, clock, createLoginThrottle(settings, counts)), limiter };
}

/**
 * With authentication on, /metrics on the main port is for an ADMIN's password or key (its series
 * show every operation's traffic): the bindings' guard, failed logins counted, no rate limit.
 */
function adminsOnly(settings: Settings, access: AccessControl): ProbeOptions['metricsGate'] {
  const { authenticate } = access;
  if (!authenticate) return undefined;
  const guard = accessGuard(settings, { authenticate, admits: (user) => user.role === 'ADMIN' })!;
  return (req, res, serve) => {
    asBindingExchange(req, res);
    guard(req, res as BindingResponse, plainRefusals(res as BindingResponse), serve);
  };
}

/** next(error) as Express reads it: 'route' and 'router' only skip, they are not failures. */
function isError(error: unknown): boolean {
  return error !== undefined && error !== null && error !== 'route' && error !== 'router';
}

/** METRICS_PORT: /metrics on a listener of its own, so the port clients reach need not expose it; 404 for the rest. */
function metricsListener(metrics: Probe): RequestListener {
  return (req, res) => {
    setAnswerHeaders(res);
    if ((req.method === 'GET' || req.method === 'HEAD') && opsPathOf(req.url ?? '') === '/metrics')
      return metrics(req, res);
    sendPlainError(res, 404, HTTP_TEXT.notFound());
  };
}

function notFound(_req: IncomingMessage, res: BindingResponse): void {
  annotate(res, { outcome: 'not_found' });
  sendPlainError(res, 404, HTTP_TEXT.notFound());
}

/** Last resort: never a stack trace or an internal message to the client (docs/architecture.md). */
function unexpectedError(err: unknown, _req: IncomingMessage, res: BindingResponse, _next: NextFunction): void {
  const status = (err as { status?: number }).status;
  if (res.headersSent) {
    annotateUnexpected(res, err);
    res.destroy();
    return;
  }
  if (status === 400 || status === 413) {
    annotate(res, { outcome: 'protocol_error' });
    sendPlainError(res, status, status === 413 ? HTTP_TEXT.entityTooLarge() : HTTP_TEXT.badRequest());
    return;
  }
  annotateUnexpected(res, err);
  sendPlainServerError(res);
}
