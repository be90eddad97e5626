/**
 * Password hashes: node:crypto's scrypt with one of OWASP's settings, stored as
 * scrypt$N$r$p$salt$hash so that the cost can be raised without invalidating stored hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { gated } from './verification-gate';

const COST = { N: 2 ** 15, r: 8, p: 3 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Bounds a stored hash must respect, so a corrupt row cannot make one check take minutes. */
const MAX = { N: 2 ** 20, r: 32, p: 16 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, COST, HASH_BYTES);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Whether `password` made `stored` (false for a malformed hash); the gate may refuse it with Busy. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const hash = await gated(() => derive(password, parsed.salt, parsed.cost, parsed.hash.length));
  return timingSafeEqual(hash, parsed.hash);
}

/** A hash to verify against for an unknown user, so that answer times do not tell which usernames exist. */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

let decoy: Promise<string> | undefined;

function parse(stored: string) {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^\d{1,8}$/.test(part) ? Number(part) : NaN));
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX.N || !(r >= 1 && r <= MAX.r) || !(p >= 1 && p <= MAX.p)) return undefined;
  const salt = Buffer.from(parts[4], 'base64');
  const hash = Buffer.from(parts[5], 'base64');
  if (salt.length < 8 || hash.length < 16) return undefined;
  return { cost: { N, r, p }, salt, hash };
}

function derive(password: string, salt: Buffer, cost: typeof COST, length: number): Promise<Buffer> {
  // node:crypto refuses more than maxmem (32 MiB by default); scrypt needs about 128 * N * r bytes.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}
