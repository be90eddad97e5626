/**
 * Per-client counts in the store of RATE_LIMIT_STORE (docs/operations.md, "Rate limiting"), for requests and
 * failed logins. A store that fails or is slow must not stop the service: the process then counts alone until it answers.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import Redis from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Settings } from '../config';
import type { Engine } from '../db/engine';
import type { Logger } from '../monitoring/logger';
import { withTimeout } from '../monitoring/probes';
import type { Credentials } from './credentials';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };
/** A decision of take, with how to take back the one it counted (refused or not). */
export type Taken = RateDecision & { giveBack(): Promise<void> };

/** Counts per key within an allowance of `points` per `duration` seconds. */
export interface Counter {
  /** Counts one for `key`, or says how long until it may count again (the refused one counted too). */
  take(key: string): Promise<Taken>;
  /** Whether `key` has its allowance spent, without counting. */
  peek(key: string): Promise<RateDecision>;
}

export interface CountStore {
  /** A counter whose keys are kept under `prefix`, apart from every other counter's. */
  counter(prefix: string, allowance: { points: number; duration: number }): Counter;
  /** Lets go of the store's connection (Redis); the PostgreSQL pool belongs to the engine. */
  close(): Promise<void>;
}

const STORE_TIMEOUT_MS = 1000;
const WARN_EVERY_MS = 30_000;

/** RATE_LIMIT_BURST requests per window of BURST / PER_MINUTE minutes (at least a second); none when PER_MINUTE is 0. */
export function createRateLimiter(
  settings: Pick<Settings, 'rateLimitPerMinute' | 'rateLimitBurst'>,
  store: CountStore,
): Counter | undefined {
  if (settings.rateLimitPerMinute <= 0) return undefined;
  return store.counter('asmx', {
    points: settings.rateLimitBurst,
    duration: Math.max(1, Math.round((settings.rateLimitBurst * 60) / settings.rateLimitPerMinute)),
  });
}

type CounterOptions = { points: number; duration: number; keyPrefix: string };
type Opener = (options: CounterOptions) => Promise<RateLimiterAbstract>;

/** The store of RATE_LIMIT_STORE; it connects when a counter is first used. */
export function openCountStore(
  settings: Pick<Settings, 'rateLimitStore' | 'redisUrl'>,
  engine: Engine,
  logger: Logger,
): CountStore {
  const health = new StoreHealth(settings.rateLimitStore, logger);
  let redis: Redis | undefined;
  const open: Opener =
    settings.rateLimitStore === 'redis'
      ? (options) => {
          redis ??= connectRedis(settings.redisUrl ?? '');
          const limiter = new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true });
          // The first requests wait for the connection; once() rejects on the client's next error.
          return redis.status === 'ready' ? Promise.resolve(limiter) : once(redis, 'ready').then(() => limiter);
        }
      : settings.rateLimitStore === 'postgres'
        ? postgresOpener(engine)
        : (options) => Promise.resolve(new RateLimiterMemory(options));
  return {
    counter: (prefix, allowance) => new StoreCounter(open, { ...allowance, keyPrefix: prefix }, health),
    close: () => Promise.resolve(redis?.disconnect()),
  };
}

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

  async take(key: string): Promise<Taken> {
    const asked = Date.now();
    const res = await this.ask((limiter) => limiter.consume(key));
    return {
      ...(res.consumedPoints > this.options.points ? refused(res) : { allowed: true }),
      // Only within its window: after it, the reward would start the next window below zero.
      giveBack: async () => {
        if (Date.now() < asked + res.msBeforeNext) await this.ask((limiter) => limiter.reward(key));
      },
    };
  }

  async peek(key: string): Promise<RateDecision> {
    const res = await this.ask((limiter) => limiter.get(key));
    return res !== null && res.consumedPoints >= this.options.points ? refused(res) : { allowed: true };
  }

  /** The store's answer, or this process's while the store fails; a refusal (a RateLimiterRes rejected) is an answer. */
  private async ask<T>(question: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T | RateLimiterRes> {
    const answer = (limiter: RateLimiterAbstract) =>
      question(limiter).catch((outcome: unknown) => {
        if (outcome instanceof RateLimiterRes) return outcome;
        throw outcome;
      });
    try {
      const answered = await withTimeout(this.opened().then(answer), STORE_TIMEOUT_MS);
      this.health.recovered();
      return answered;
    } catch (error) {
      this.health.failed(error);
      return answer(this.local);
    }
  }

  /** Opened on first use (the database may not be up when the app is built), and again after a failed opening. */
  private opened(): Promise<RateLimiterAbstract> {
    const opening = (this.store ??= this.open(this.options));
    opening.catch(() => {
      if (this.store === opening) this.store = undefined;
    });
    return opening;
  }
}

/** The store's failures and recovery, logged once for all its counters, a warning at most every WARN_EVERY_MS. */
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
    this.logger.warn(
      { err: error, store: this.kind, failures: this.failuresSinceWarning },
      `the rate-limit store (${this.kind}) failed; counting in this process until it answers`,
    );
  }
}

function refused(res: RateLimiterRes): RateDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

/** The library creates its table on first use: counters open one after the other, as two such statements can collide. */
function postgresOpener(engine: Engine): Opener {
  let previous: Promise<unknown> = Promise.resolve();
  return (options) => {
    const opening = previous
      .catch(() => undefined)
      .then(
        () =>
          new Promise<RateLimiterAbstract>((resolve, reject) => {
            if (!engine.pool) return reject(new Error('RATE_LIMIT_STORE=postgres needs a PostgreSQL database'));
            const limiter: RateLimiterPostgres = new RateLimiterPostgres(
              {
                ...options,
                storeClient: engine.pool,
                storeType: 'pool',
                tableName: 'rate_limits',
                schemaName: engine.schema,
                clearExpiredByTimeout: true,
              },
              (error?: Error) => (error ? reject(error) : resolve(limiter)),
            );
          }),
      );
    previous = opening;
    return opening;
  };
}

function connectRedis(url: string): Redis {
  // No offline queue: while Redis is down a command fails at once instead of waiting for a reconnect.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  // Failures are reported through the counters; ioredis reconnects by itself.
  client.on('error', () => undefined);
  return client;
}

/** Failed logins a minute per address and username, and per address; never per username alone, or anyone could lock a user out. */
export interface LoginThrottle {
  /** Rejects with Throttled while a ceiling of credentials presented from `address` is reached; counts nothing. */
  admit(address: string, credentials: Credentials): Promise<void>;
  /** Counts an attempt about to be checked in every count, or rejects with Throttled and counts it in none; returns how to give its place back. */
  take(address: string, credentials: Credentials): Promise<() => Promise<void>>;
}

/** An attempt refused, unchecked, past a failed-login ceiling. */
export class Throttled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too many failed logins');
    this.name = 'Throttled';
  }
}

const WINDOW_SECONDS = 60;

export function createLoginThrottle(
  settings: Pick<Settings, 'loginFailuresPerMinute' | 'loginFailuresPerAddressPerMinute'>,
  store: CountStore,
): LoginThrottle {
  const pairs = store.counter('asmx-login-user', { points: settings.loginFailuresPerMinute, duration: WINDOW_SECONDS });
  const addresses = store.counter('asmx-login-address', {
    points: settings.loginFailuresPerAddressPerMinute,
    duration: WINDOW_SECONDS,
  });
  /** The counts of an attempt and its key in each, the narrower first. */
  const counts = (address: string, credentials: Credentials): Array<[Counter, string]> => {
    const pair = pairKey(address, credentials);
    return pair
      ? [
          [pairs, pair],
          [addresses, address],
        ]
      : [[addresses, address]];
  };
  return {
    async admit(address, credentials) {
      const decisions = await Promise.all(counts(address, credentials).map(([counter, key]) => counter.peek(key)));
      const wait = Math.max(...decisions.map((d) => (d.allowed ? 0 : d.retryAfterSeconds)));
      if (wait > 0) throw new Throttled(wait);
    },
    async take(address, credentials) {
      const taken: Taken[] = [];
      const giveBack = async () => {
        await Promise.all(taken.map((place) => place.giveBack()));
      };
      // One count after the other: taken together, two attempts could each be refused by a different count, neither checked.
      for (const [counter, key] of counts(address, credentials)) {
        const place = await counter.take(key);
        taken.push(place);
        if (!place.allowed) {
          await giveBack();
          throw new Throttled(place.retryAfterSeconds);
        }
      }
      return giveBack;
    },
  };
}

/** The (address, username) key of Basic credentials: a digest, so a long username cannot bloat the store. */
function pairKey(address: string, credentials: Credentials): string | undefined {
  if (credentials.kind !== 'basic') return undefined;
  return createHash('sha256')
    .update(address)
    .update('\0')
    .update(credentials.username.toLowerCase())
    .digest('base64url');
}
