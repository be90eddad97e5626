/**
 * Per-client rate limiting (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST): a token bucket per client that
 * holds up to `burst` requests and refills at `perMinute` a minute. So a client may send `burst`
 * requests at once, then `perMinute` a minute on average. In-process: each server process (each of
 * WORKERS) counts on its own (docs/operations.md, "Rate limiting").
 */
import type { Clock } from '../operations/types';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms. */
  at: number;
}

/** Past this many clients, buckets that have refilled completely (idle clients) are dropped. */
const SWEEP_ABOVE = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    perMinute: number,
    private readonly burst: number,
    private readonly clock: Clock,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes one request from the client's bucket, or says how long until it may try again. */
  take(client: string): RateDecision {
    const now = this.clock.now().getTime();
    const bucket = this.refilled(this.buckets.get(client), now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.buckets.set(client, bucket);
      if (this.buckets.size > SWEEP_ABOVE) this.sweep(now);
      return { allowed: true };
    }
    this.buckets.set(client, bucket);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { tokens: this.burst, at: now };
    const elapsed = Math.max(0, now - bucket.at);
    return { tokens: Math.min(this.burst, bucket.tokens + elapsed * this.perMs), at: now };
  }

  private sweep(now: number): void {
    for (const [client, bucket] of this.buckets) {
      if (this.refilled(bucket, now).tokens >= this.burst) this.buckets.delete(client);
    }
  }
}
