/**
 * Per-client rate limiting (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST; docs/operations.md, "Rate
 * limiting"), counted by rate-limiter-flexible in a store every server process sees:
 *
 *   RATE_LIMIT_STORE=postgres  the PostgreSQL database (table rate_limits, created on first use);
 *                              the default on PostgreSQL, so WORKERS and several hosts share one count
 *   RATE_LIMIT_STORE=redis     Redis at REDIS_URL (ioredis)
 *   RATE_LIMIT_STORE=memory    each process on its own (SQLite's default: one process anyway)
 *
 * Each client has an allowance of RATE_LIMIT_BURST requests per window of BURST / PER_MINUTE
 * minutes (at least a second): it may send the burst at once and PER_MINUTE a minute on average.
 * A refused request learns how many seconds remain until its window ends (Retry-After).
 *
 * A shared store that fails or does not answer within STORE_TIMEOUT_MS must not take the service
 * down: the request is counted in this process instead (a per-process limit, as with memory), and a
 * warning is logged, at most once per WARN_EVERY_MS, until the store answers again (one info line).
 */
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Settings } from '../config';
import type { Engine } from '../db/engine';
import type { Logger } from '../ops/logger';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one request of the client, or says how long until it may try again. */
  take(client: string): Promise<RateDecision>;
  /** Lets go of the store's connection (Redis); the PostgreSQL pool belongs to the engine. */
  close(): Promise<void>;
}

/** Longest wait for the shared store before the request is counted in this process instead. */
const STORE_TIMEOUT_MS = 1000;
const WARN_EVERY_MS = 30_000;
const KEY_PREFIX = 'asmx';
const TABLE = 'rate_limits';

interface Allowance {
  points: number;
  duration: number;
}

export type RateLimitSettings = Pick<Settings, 'rateLimitPerMinute' | 'rateLimitBurst' | 'rateLimitStore' | 'redisUrl'>;

/** The limiter of the settings, or undefined when RATE_LIMIT_PER_MINUTE is 0. */
export function createRateLimiter(settings: RateLimitSettings, engine: Engine, logger: Logger): RateLimiter | undefined {
  if (settings.rateLimitPerMinute <= 0) return undefined;
  const allowance: Allowance = {
    points: settings.rateLimitBurst,
    duration: Math.max(1, Math.round((settings.rateLimitBurst * 60) / settings.rateLimitPerMinute)),
  };
  const local = new RateLimiterMemory(Object.assign({}, allowance, { keyPrefix: KEY_PREFIX }));
  if (settings.rateLimitStore === 'memory') return new StoreLimiter(() => Promise.resolve(local), local, logger, 'memory');
  if (settings.rateLimitStore === 'redis') return redisLimiter(settings.redisUrl ?? '', allowance, local, logger);
  return new StoreLimiter(postgresStore(engine, allowance), local, logger, 'postgres');
}

class StoreLimiter implements RateLimiter {
  private store: Promise<RateLimiterAbstract> | undefined;
  private lastWarning = 0;
  private failuresSinceWarning = 0;

  constructor(
    private readonly open: () => Promise<RateLimiterAbstract>,
    private readonly local: RateLimiterMemory,
    private readonly logger: Logger,
    private readonly kind: string,
    private readonly onClose: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async take(client: string): Promise<RateDecision> {
    try {
      await withTimeout(this.consume(client), STORE_TIMEOUT_MS);
      this.recovered();
      return { allowed: true };
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) {
        this.recovered();
        return refused(outcome);
      }
      this.warn(outcome);
      return this.local.consume(client).then(
        () => ({ allowed: true }) as const,
        (rejection: unknown) => (rejection instanceof RateLimiterRes ? refused(rejection) : { allowed: true }),
      );
    }
  }

  close(): Promise<void> {
    return this.onClose();
  }

  /** The store is opened on first use (the database may not be up when the app is built), and again after a failed opening. */
  private async consume(client: string): Promise<RateLimiterRes> {
    const opening = (this.store ??= this.open());
    opening.catch(() => {
      if (this.store === opening) this.store = undefined;
    });
    return (await opening).consume(client);
  }

  private recovered(): void {
    if (this.failuresSinceWarning === 0) return;
    this.failuresSinceWarning = 0;
    this.lastWarning = 0;
    this.logger.info({ store: this.kind }, `the rate-limit store (${this.kind}) answers again`);
  }

  private warn(error: unknown): void {
    this.failuresSinceWarning += 1;
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    const failures = this.failuresSinceWarning;
    this.logger.warn({ err: error, store: this.kind, failures }, `the rate-limit store (${this.kind}) failed; counting in this process until it answers`);
  }
}

function refused(res: RateLimiterRes): RateDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

/** The table is created by the library on first use (CREATE TABLE IF NOT EXISTS, safe with many processes). */
function postgresStore(engine: Engine, allowance: Allowance): () => Promise<RateLimiterAbstract> {
  return () =>
    new Promise((resolve, reject) => {
      if (!engine.pool) return reject(new Error('RATE_LIMIT_STORE=postgres needs a PostgreSQL database'));
      const limiter: RateLimiterPostgres = new RateLimiterPostgres(
        Object.assign({}, allowance, { keyPrefix: KEY_PREFIX, storeClient: engine.pool, storeType: 'pool', tableName: TABLE, schemaName: engine.schema, clearExpiredByTimeout: true }),
        (error?: Error) => (error ? reject(error) : resolve(limiter)),
      );
    });
}

function redisLimiter(url: string, allowance: Allowance, local: RateLimiterMemory, logger: Logger): RateLimiter {
  // No offline queue: while Redis is down a command fails at once instead of waiting for a reconnect.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  // Connection failures are reported through take() (and its throttled warning); ioredis reconnects by itself.
  client.on('error', () => undefined);
  const store = new RateLimiterRedis(Object.assign({}, allowance, { keyPrefix: KEY_PREFIX, storeClient: client, rejectIfRedisNotReady: true }));
  return new StoreLimiter(() => whenReady(client).then(() => store), local, logger, 'redis', () => {
    client.disconnect();
    return Promise.resolve();
  });
}

/** Resolves once the client is connected (the first requests wait for it), rejects on its next error. */
function whenReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      client.off('ready', onReady);
      client.off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => settle();
    client.once('ready', onReady);
    client.once('error', settle);
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
