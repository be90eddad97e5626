/** Prometheus metrics (docs/operations.md, "Metrics"): the process's, the requests', the database's and the answer cache's. */
import cluster from 'node:cluster';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Engine } from '../db/engine';
import type { CacheCounts } from '../db/versioned-lru';
import { isOpsRequest } from './request-summary';
import { summarize } from '../request-context/annotation';

const LABELS = ['service', 'operation', 'binding', 'outcome'] as const;

/** Seconds; reports over large ranges and uploads take longer than lookups. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

let processRegistry: Registry | undefined;

/** prom-client's default metrics, registered once per process however many apps it builds. */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The app's own series, and the middleware that counts a request once its answer is finished or aborted. */
export function createAppMetrics(
  engine: Engine,
  answers?: CacheCounts,
  delivery?: DeliveryCounts,
): { registry: Registry; middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => void } {
  const registry = new Registry();
  const requests = new Counter({
    name: 'asmx_requests_total',
    help: 'Requests answered, by service, operation, binding and outcome.',
    labelNames: LABELS,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'asmx_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by service, operation, binding and outcome.',
    labelNames: LABELS,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  registerDatabaseGauges(registry, engine);
  if (answers) registerAnswerCacheSeries(registry, answers);
  if (delivery) registerDeliverySeries(registry, delivery);
  // One pair of series per label set, looked up by a joined key instead of prom-client hashing the labels twice per request.
  const series = new Map<string, { requests: { inc(): void }; duration: { observe(value: number): void } }>();
  const seriesOf = (labels: Record<(typeof LABELS)[number], string>) => {
    const key = `${labels.service}\n${labels.operation}\n${labels.binding}\n${labels.outcome}`;
    let found = series.get(key);
    if (!found) {
      found = { requests: requests.labels(labels), duration: duration.labels(labels) };
      series.set(key, found);
    }
    return found;
  };
  return {
    registry,
    middleware(req, res, next) {
      if (isOpsRequest(req)) return next();
      const start = process.hrtime.bigint();
      const count = () => {
        res.off('finish', count);
        res.off('close', count);
        const { service, operation, binding, outcome } = summarize(res);
        const counted = seriesOf({ service, operation, binding, outcome });
        counted.requests.inc();
        counted.duration.observe(Number(process.hrtime.bigint() - start) / 1e9);
      };
      res.on('finish', count);
      res.on('close', count);
      next();
    },
  };
}

function registerDatabaseGauges(registry: Registry, engine: Engine): void {
  const pool = engine.pool;
  new Gauge({
    name: 'asmx_db_connections',
    help: 'Database connections by state: PostgreSQL pool total and idle; SQLite is one embedded connection.',
    labelNames: ['engine', 'state'],
    registers: [registry],
    collect() {
      if (pool) {
        this.set({ engine: 'postgres', state: 'total' }, pool.totalCount);
        this.set({ engine: 'postgres', state: 'idle' }, pool.idleCount);
      } else {
        this.set({ engine: 'sqlite', state: 'total' }, 1);
      }
    },
  });
  new Gauge({
    name: 'asmx_db_waiting_queries',
    help: 'Queries waiting for a free PostgreSQL pool connection (always 0 on SQLite).',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      this.set({ engine: engine.kind }, pool ? pool.waitingCount : 0);
    },
  });
}

/** The answer cache's lookups and the bytes it holds (docs/operations.md, "Answer cache"). */
function registerAnswerCacheSeries(registry: Registry, cache: CacheCounts): void {
  new Counter({
    name: 'asmx_answer_cache_lookups_total',
    help: 'Reads that looked for a kept answer: hit (answered from the cache) or miss (the query ran).',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ result: 'hit' }, cache.hits);
      this.inc({ result: 'miss' }, cache.misses);
    },
  });
  new Gauge({
    name: 'asmx_answer_cache_bytes',
    help: 'Bytes of the answers the answer cache holds.',
    registers: [registry],
    collect() {
      this.set(cache.size);
    },
  });
}

/** What slow clients cost and were refused (docs/operations.md, "Slow clients"), as the connection guard and the spool count them. */
export interface DeliveryCounts {
  connections: { readonly open: number; readonly refused: number; readonly sendTimeouts: number };
  spool: { readonly bytes: number; readonly cut: number };
}

function registerDeliverySeries(registry: Registry, { connections, spool }: DeliveryCounts): void {
  new Gauge({
    name: 'asmx_open_connections',
    help: 'Client connections open on the main port.',
    registers: [registry],
    collect() {
      this.set(connections.open);
    },
  });
  new Counter({
    name: 'asmx_connections_refused_total',
    help: 'Requests answered 503 because their connection came past MAX_CONNECTIONS.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(connections.refused);
    },
  });
  new Counter({
    name: 'asmx_connections_closed_total',
    help: 'Connections the server closed mid-answer: send_timeout (the client took no bytes for SEND_TIMEOUT_MS), spool_full (SPOOL_MAX_MB spent).',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ reason: 'send_timeout' }, connections.sendTimeouts);
      this.inc({ reason: 'spool_full' }, spool.cut);
    },
  });
  new Gauge({
    name: 'asmx_spool_bytes',
    help: 'Bytes of answers waiting on disk for their clients (SPOOL_DIR).',
    registers: [registry],
    collect() {
      this.set(spool.bytes);
    },
  });
}

/** This process's exposition: process figures, then the app's own series. */
export async function localMetricsText(appRegistry: Registry): Promise<string> {
  const parts = await Promise.all([processMetrics().metrics(), appRegistry.metrics()]);
  return parts.join('\n');
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** /metrics under WORKERS > 1: whichever worker is asked gets the sum over all of them from the primary. */
const ASK = 'asmx:cluster-metrics';
const ANSWER = 'asmx:cluster-metrics-answer';
const ANSWER_TIMEOUT_MS = 5000;

type Ask = { type: typeof ASK; id: number };
type Answer = { type: typeof ANSWER; id: number; text?: string; error?: string };

/** In a worker: lets the primary read these registries (prom-client answers its requests). */
export function shareWithPrimary(registries: Registry[]): void {
  AggregatorRegistry.setRegistries(registries);
  new AggregatorRegistry();
}

/** In the primary: answers workers' requests for the aggregate. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<Ask>) => {
    if (message?.type !== ASK || typeof message.id !== 'number') return;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

let nextId = 0;

/** In a worker: the aggregate over every worker, from the primary. */
export function clusterMetricsText(): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: Partial<Answer>) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      done();
      if (message.text !== undefined) resolve(message.text);
      else reject(new Error(message.error ?? 'no metrics from the primary'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the primary did not answer the metrics request in time'));
    }, ANSWER_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ type: ASK, id } satisfies Ask);
  });
}
