/** The principal of presented credentials, read on every request so that a revoked key or user stops at once. */
import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UsersTable } from '../db/schema';
import type { Clock } from '../operations/types';
import { parseApiKey, secretMatches } from './api-key';
import { keyWithUser, touchKey, userWithPassword } from './credential-store';
import type { Credentials } from './credentials';
import { decoyHash, verifyPassword } from './password-hash';
import type { LoginThrottle } from './rate-limiter';

/** last_used_at is written at most this often per key, so a busy key does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Rejects with Throttled past a failed-login ceiling of the address, and with Busy when the verification gate is full. */
export type Authenticate = (credentials: Credentials, address: string) => Promise<UsersTable | undefined>;

/** Runs a check of credentials with a place taken for it in the failed-login counts. */
type Placed = (check: () => Promise<UsersTable | undefined>) => Promise<UsersTable | undefined>;

export function createAuthenticator(db: Kysely<Database>, clock: Clock, throttle: LoginThrottle): Authenticate {
  const verified = new VerifiedPasswords(clock);
  return async (credentials, address) => {
    // Past a ceiling nothing is looked at, a remembered password included.
    await throttle.admit(address, credentials);
    // A check takes its place in the counts before it runs, so attempts at once cannot pass a ceiling;
    // only a failed check keeps it (not a success, nor one stopped by Busy or an error).
    const placed: Placed = async (check) => {
      const giveBack = await throttle.take(address, credentials);
      const principal = await check().catch(async (error: unknown) => {
        await giveBack();
        throw error;
      });
      if (principal) await giveBack();
      return principal;
    };
    switch (credentials.kind) {
      case 'basic':
        return byPassword(db, verified, credentials.username, credentials.password, placed);
      case 'apikey':
        return placed(() => byApiKey(db, clock, credentials.key));
      case 'malformed':
        // Nothing to check: a failure at once.
        await throttle.take(address, credentials);
        return undefined;
    }
  };
}

async function byPassword(
  db: Kysely<Database>,
  verified: VerifiedPasswords,
  username: string,
  password: string,
  placed: Placed,
): Promise<UsersTable | undefined> {
  const found = await userWithPassword(db, username);
  const active = (user: UsersTable) => (user.active === 1 ? user : undefined);
  // Remembered, it needs no check and takes no place: a client's calls at once are not refused.
  if (found?.passwordHash && verified.has(username, password, found.passwordHash)) return active(found.user);
  return placed(async () => {
    if (!found || found.passwordHash === null) {
      // As long as a real check, so the answer time does not reveal which usernames exist.
      await verifyPassword(password, await decoyHash());
      return undefined;
    }
    if (!(await verifyPassword(password, found.passwordHash))) return undefined;
    verified.add(username, password, found.passwordHash);
    return active(found.user);
  });
}

async function byApiKey(db: Kysely<Database>, clock: Clock, presented: string): Promise<UsersTable | undefined> {
  const parts = parseApiKey(presented);
  if (!parts) return undefined;
  const found = await keyWithUser(db, parts.keyId);
  if (!found || !secretMatches(parts.secret, found.key.secret_hash)) return undefined;
  if (found.key.revoked_at !== null || found.user.active !== 1) return undefined;
  const now = clock.now();
  const lastUsed = found.key.last_used_at === null ? 0 : Date.parse(found.key.last_used_at);
  if (!(now.getTime() - lastUsed < LAST_USED_RESOLUTION_MS)) await touchKey(db, parts.keyId, now.toISOString());
  return found.user;
}

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** A matched (username, password) pair, as an HMAC, for a minute: a Basic client pays scrypt once a minute, not per call. */
export class VerifiedPasswords {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, { passwordHash: string; expires: number }>();

  constructor(private readonly clock: Clock) {}

  has(username: string, password: string, passwordHash: string): boolean {
    const id = this.idOf(username, password);
    const entry = this.entries.get(id);
    if (!entry) return false;
    if (entry.expires <= this.clock.now().getTime() || entry.passwordHash !== passwordHash) {
      this.entries.delete(id);
      return false;
    }
    return true;
  }

  add(username: string, password: string, passwordHash: string): void {
    const id = this.idOf(username, password);
    this.entries.delete(id);
    // Oldest first (Map keeps insertion order): the bound holds whatever the number of users.
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(id, { passwordHash, expires: this.clock.now().getTime() + TTL_MS });
  }

  private idOf(username: string, password: string): string {
    return createHmac('sha256', this.key).update(username.toLowerCase()).update('\0').update(password).digest('base64');
  }
}
