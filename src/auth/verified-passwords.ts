/** A matched (username, password) pair, as an HMAC, for a minute: a Basic client pays scrypt once a minute, not per call. */
import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../operations/types';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

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
