/**
 * Per-client rate limiting (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST; docs/operations.md, "Rate
 * limiting") and the counts of failed logins (login-throttle.ts), kept by rate-limiter-flexible in a
 * store every server process sees:
 *
 *   RATE_LIMIT_STORE=postgres  the PostgreSQL database (table rate_limits, created on first use);
 *                              the default on PostgreSQL, so WORKERS and several hosts share one count
 *   RATE_LIMIT_STORE=redis     Redis at REDIS_URL (ioredis)
 *   RATE_LIMIT_STORE=memory    each process on its own (SQLite's default: one process anyway)
 *
 * Each counter has its own key prefix and allowance in the one store. For the rate limit, each
 * client has RATE_LIMIT_BURST requests per window of BURST / PER_MINUTE minutes (at least a second):
 * it may send the burst at once and PER_MINUTE a minute on average. A refused request learns how
 * many seconds remain until its window ends (Retry-After).
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

/** Counts per key within an allowance, in the store of the settings. */
export interface Counter {
  /** Counts one for `key`, or says how long until it may count again. */
  take(key: string): Promise<RateDecision>;
  /** Whether `key` has its allowance spent, without counting. */
  peek(key: string): Promise<RateDecision>;
}

/** Counts one request of a client (`take`), or says how long until it may try again. */
export type RateLimiter = Counter;

export interface Allowance {
  points: number;
  /** Seconds of the window. */
  duration: number;
}

export interface CountStore {
  /** A counter whose keys are kept under `prefix`, apart from every other counter's. */
  counter(prefix: string, allowance: Allowance): Counter;
  /** Lets go of the store's connection (Redis); the PostgreSQL pool belongs to the engine. */
  close(): Promise<void>;
}

/** Longest wait for the shared store before the request is counted in this process instead. */
const STORE_TIMEOUT_MS = 1000;
const WARN_EVERY_MS = 30_000;
const KEY_PREFIX = 'asmx';
const TABLE = 'rate_limits';

export type RateLimitSettings = Pick<Settings, 'rateLimitPerMinute' | 'rateLimitBurst'>;
export type CountStoreSettings = Pick<Settings, 'rateLimitStore' | 'redisUrl'>;

/** The limiter of the settings, or undefined when RATE_LIMIT_PER_MINUTE is 0. */
export function createRateLimiter(settings: RateLimitSettings, store: CountStore): RateLimiter | undefined {
  if (settings.rateLimitPerMinute <= 0) return undefined;
  return store.counter(KEY_PREFIX, {
    points: settings.rateLimitBurst,
    duration: Math.max(1, Math.round((settings.rateLimitBurst * 60) / settings.rateLimitPerMinute)),
  });
}

/** The store of RATE_LIMIT_STORE; it connects when a counter is first used. */
export function openCountStore(settings: CountStoreSettings, engine: Engine, logger: Logger): CountStore {
  const health = new StoreHealth(settings.rateLimitStore, logger);
  if (settings.rateLimitStore === 'redis') return redisStore(settings.redisUrl ?? '', health);
  const open: Opener = settings.rateLimitStore === 'memory' ? (options) => Promise.resolve(new RateLimiterMemory(options)) : postgresOpener(engine);
  return { counter: (prefix, allowance) => new StoreCounter(open, { points: allowance.points, duration: allowance.duration, keyPrefix: prefix }, health), close: () => Promise.resolve() };
}

type CounterOptions = Allowance & { keyPrefix: string };
type Opener = (options: CounterOptions) => Promise<RateLimiterAbstract>;

class StoreCounter implements Counter {
  private store: Promise<RateLimiterAbstract> | undefined;
  /** Where the counting goes while the store fails. */
  private readonly local: RateLimiterMemory;

  constructor(
    private readonly open: Opener,
    private readonly options: CounterOptions,
    private readonly health: StoreHealth,
  ) {
    this.local = new RateLimiterMemory(options);
  }

  take(key: string): Promise<RateDecision> {
    return this.ask((limiter) => limiter.consume(key).then(() => ({ allowed: true }) as const));
  }

  peek(key: string): Promise<RateDecision> {
    // The count so far: spent once it has reached the allowance (the next take would be refused).
    return this.ask((limiter) => limiter.get(key).then((res) => (res !== null && res.consumedPoints >= this.options.points ? refused(res) : { allowed: true })));
  }

  /** The store's answer, or this process's while the store fails; a rejection with a RateLimiterRes is a refusal. */
  private async ask(question: (limiter: RateLimiterAbstract) => Promise<RateDecision>): Promise<RateDecision> {
    try {
      const decision = await withTimeout(this.opened().then(question), STORE_TIMEOUT_MS);
      this.health.recovered();
      return decision;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) {
        this.health.recovered();
        return refused(outcome);
      }
      this.health.failed(outcome);
      return question(this.local).catch((rejection: unknown) => (rejection instanceof RateLimiterRes ? refused(rejection) : { allowed: true }));
    }
  }

  /** The store is opened on first use (the database may not be up when the app is built), and again after a failed opening. */
  private opened(): Promise<RateLimiterAbstract> {
    const opening = (this.store ??= this.open(this.options));
    opening.catch(() => {
      if (this.store === opening) this.store = undefined;
    });
    return opening;
  }
}

/** The store's failures and recovery, logged once for all its counters. */
class StoreHealth {
  private lastWarning = 0;
  private failuresSinceWarning = 0;

  constructor(
    private readonly kind: string,
    private readonly logger: Logger,
  ) {}

  recovered(): void {
    if (this.failuresSinceWarning === 0) return;
    this.failuresSinceWarning = 0;
    this.lastWarning = 0;
    this.logger.info({ store: this.kind }, `the rate-limit store (${this.kind}) answers again`);
  }

  failed(error: unknown): void {
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

/**
 * The table is created by the library on first use (CREATE TABLE IF NOT EXISTS). The counters of one
 * process open one after the other: two such statements at once can still collide in PostgreSQL.
 */
function postgresOpener(engine: Engine): Opener {
  let previous: Promise<unknown> = Promise.resolve();
  return (options) => {
    const opening = previous.catch(() => undefined).then(
      () =>
        new Promise<RateLimiterAbstract>((resolve, reject) => {
          if (!engine.pool) return reject(new Error('RATE_LIMIT_STORE=postgres needs a PostgreSQL database'));
          const limiter: RateLimiterPostgres = new RateLimiterPostgres(
            { ...options, storeClient: engine.pool, storeType: 'pool', tableName: TABLE, schemaName: engine.schema, clearExpiredByTimeout: true },
            (error?: Error) => (error ? reject(error) : resolve(limiter)),
          );
        }),
    );
    previous = opening;
    return opening;
  };
}

/** One Redis connection for every counter, made when one is first used. */
function redisStore(url: string, health: StoreHealth): CountStore {
  let client: Redis | undefined;
  const connected = (): Redis => {
    if (client) return client;
    // No offline queue: while Redis is down a command fails at once instead of waiting for a reconnect.
    client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    // Connection failures are reported through the counters (and the throttled warning); ioredis reconnects by itself.
    client.on('error', () => undefined);
    return client;
  };
  const open: Opener = (options) => {
    const redis = connected();
    const limiter = new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true });
    return whenReady(redis).then(() => limiter);
  };
  return {
    counter: (prefix, allowance) => new StoreCounter(open, { points: allowance.points, duration: allowance.duration, keyPrefix: prefix }, health),
    close() {
      client?.disconnect();
      return Promise.resolve();
    },
  };
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
