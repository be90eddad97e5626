/**
 * API keys: '<key_id>.<secret>'. The secret is 32 random bytes, stored only as its SHA-256: at that
 * entropy it cannot be guessed from its hash, so no slow hash is needed (unlike passwords).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface ApiKeyParts {
  keyId: string;
  secret: string;
}

const KEY = /^([0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/;

export function generateApiKey(): ApiKeyParts & { key: string } {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, key: `${keyId}.${secret}` };
}

/** The parts of a well-formed key; undefined for anything else (no database lookup is made then). */
export function parseApiKey(text: string): ApiKeyParts | undefined {
  const match = KEY.exec(text.trim());
  return match ? { keyId: match[1], secret: match[2] } : undefined;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
