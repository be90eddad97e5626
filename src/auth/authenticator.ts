/** The principal of presented credentials, read on every request so that a revoked key or user stops at once. */
import type { Kysely } from 'kysely';
import type { Database, UsersTable } from '../db/schema';
import type { Clock } from '../operations/types';
import { parseApiKey, secretMatches } from './api-key';
import { keyWithUser, touchKey, userWithPassword } from './credential-store';
import type { Credentials } from './credentials';
import { decoyHash, verifyPassword } from './password-hash';
import { VerifiedPasswords } from './verified-passwords';

/** last_used_at is written at most this often per key, so a busy key does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type Authenticate = (credentials: Credentials) => Promise<UsersTable | undefined>;

export function createAuthenticator(db: Kysely<Database>, clock: Clock): Authenticate {
  const verified = new VerifiedPasswords(clock);
  return async (credentials) => {
    switch (credentials.kind) {
      case 'basic':
        return byPassword(db, verified, credentials.username, credentials.password);
      case 'apikey':
        return byApiKey(db, clock, credentials.key);
      case 'malformed':
        return undefined;
    }
  };
}

async function byPassword(db: Kysely<Database>, verified: VerifiedPasswords, username: string, password: string): Promise<UsersTable | undefined> {
  const found = await userWithPassword(db, username);
  if (!found || found.passwordHash === null) {
    // As long as a real check, so the answer time does not reveal which usernames exist.
    await verifyPassword(password, await decoyHash());
    return undefined;
  }
  const { user, passwordHash } = found;
  const ok = verified.has(username, password, passwordHash) || (await verifyPassword(password, passwordHash));
  if (!ok) return undefined;
  verified.add(username, password, passwordHash);
  return user.active === 1 ? user : undefined;
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
