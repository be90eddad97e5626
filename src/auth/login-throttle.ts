/** Failed logins a minute per address and username, and per address; never per username alone, or anyone could lock a user out. */
import { createHash } from 'node:crypto';
import type { Settings } from '../config';
import type { Credentials } from './credentials';
import type { CountStore, RateDecision } from './rate-limiter';

export interface LoginThrottle {
  /** Whether credentials presented from `address` may be checked, or how long until they may. */
  admits(address: string, credentials: Credentials): Promise<RateDecision>;
  /** Counts a failed attempt. */
  failed(address: string, credentials: Credentials): Promise<void>;
}

const WINDOW_SECONDS = 60;

export function createLoginThrottle(settings: Pick<Settings, 'loginFailuresPerMinute' | 'loginFailuresPerAddressPerMinute'>, store: CountStore): LoginThrottle {
  const pairs = store.counter('asmx-login-user', { points: settings.loginFailuresPerMinute, duration: WINDOW_SECONDS });
  const addresses = store.counter('asmx-login-address', { points: settings.loginFailuresPerAddressPerMinute, duration: WINDOW_SECONDS });
  return {
    async admits(address, credentials) {
      const pair = pairKey(address, credentials);
      const decisions = await Promise.all([addresses.peek(address), ...(pair ? [pairs.peek(pair)] : [])]);
      const waits = decisions.map((d) => (d.allowed ? 0 : d.retryAfterSeconds));
      return Math.max(...waits) > 0 ? { allowed: false, retryAfterSeconds: Math.max(...waits) } : { allowed: true };
    },
    async failed(address, credentials) {
      const pair = pairKey(address, credentials);
      await Promise.all([addresses.take(address), ...(pair ? [pairs.take(pair)] : [])]);
    },
  };
}

/** The (address, username) key of Basic credentials: a digest, so a long username cannot bloat the store. */
function pairKey(address: string, credentials: Credentials): string | undefined {
  if (credentials.kind !== 'basic') return undefined;
  return createHash('sha256').update(address).update('\0').update(credentials.username.toLowerCase()).digest('base64url');
}
