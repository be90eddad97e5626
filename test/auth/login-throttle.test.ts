/**
 * Failed logins are throttled before any password is checked (src/auth/rate-limiter.ts,
 * docs/operations.md "Authentication"), on each engine with its production store (memory on SQLite,
 * the database on PostgreSQL) and on the Redis store when TEST_REDIS_URL is set, whatever
 * RATE_LIMIT_PER_MINUTE says (off here). Ceilings of 3 per address and username and 6 per address
 * keep the cases short. What was verified is read from the verification gate's own count.
 */
import { randomBytes } from 'node:crypto';
import { gateCounts } from '../../src/auth/verification-gate';
import type { Settings } from '../../src/config';
import type { EngineKind } from '../../src/db/engine';
import type { TestApp } from '../support/app';
import { startTestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { insertMasterData } from '../support/fixture';
import { SYNC, basic, call, expectRefusal, giveKey, givePassword } from './auth-support';

type Store = Settings['rateLimitStore'];
const redisUrl = process.env.TEST_REDIS_URL;
const STORES = ENGINES.map((kind): [EngineKind, Store] => [kind, kind === 'postgres' ? 'postgres' : 'memory']);
if (redisUrl) STORES.push(['sqlite', 'redis']);
else
  process.stdout.write(
    '[left out] failed logins counted in Redis: TEST_REDIS_URL is not set (redis://127.0.0.1:6379).\n',
  );

async function startThrottled(kind: EngineKind, store: Store, env: Record<string, string>): Promise<TestApp> {
  const t = await startTestApp({
    kind,
    env: { TRUST_PROXY: 'true', LOGIN_FAILURES_PER_MINUTE: '3', LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '6', ...env },
    settings: { rateLimitStore: store, redisUrl },
  });
  await insertMasterData(t.engine.db);
  return { ...t, close: () => t.app.close().then(() => t.close()) };
}

const net = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const from = (host: number) => ({ 'X-Forwarded-For': `${net}.${host}` });

/** The status of HelloWorld over HTTP GET with these headers, and how many verifications it started. */
async function attempt(
  t: TestApp,
  headers: Record<string, string>,
): Promise<{ status: number; retryAfter?: string; verifications: number }> {
  const before = gateCounts().started;
  const res = await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, headers);
  return { status: res.status, retryAfter: res.headers['retry-after'], verifications: gateCounts().started - before };
}

/** `n` calls of HelloWorld sent at once, headers by index: how many got each status, their Retry-After values, and the verifications started. */
async function burst(
  t: TestApp,
  n: number,
  headers: (i: number) => Record<string, string>,
): Promise<{ statuses: Record<number, number>; waits: number[]; verifications: number }> {
  const before = gateCounts().started;
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => call(t.app, 'httpget', SYNC, 'HelloWorld', {}, headers(i))),
  );
  const statuses: Record<number, number> = {};
  for (const res of answers) statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  const waits = answers.filter((res) => res.status === 429).map((res) => Number(res.headers['retry-after']));
  return { statuses, waits, verifications: gateCounts().started - before };
}

const withinAMinute = (waits: number[]) => waits.every((wait) => wait >= 1 && wait <= 60);

describe.each(STORES)('failed logins: %s, %s store', (kind, store) => {
  describe('basic', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startThrottled(kind, store, { AUTH_MODE: 'basic' });
      for (const user of ['so.one', 'so.two', 'so.three', 'so.four']) await givePassword(t, user, 'correct horse');
    });
    afterAll(() => t.close());

    it('refuses an address and username past its ceiling with 429 before any hash, the right password included', async () => {
      const client = { ...from(1) };
      for (let i = 0; i < 3; i++)
        expect(await attempt(t, { ...client, ...basic('so.one', `wrong ${i}`) })).toEqual({
          status: 401,
          verifications: 1,
        });
      const past = await attempt(t, { ...client, ...basic('so.one', 'wrong 4') });
      expect(past.status).toBe(429);
      expect(Number(past.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(past.retryAfter)).toBeLessThanOrEqual(60);
      expect(past.verifications).toBe(0);
      // Whatever the case of the username.
      expect(await attempt(t, { ...client, ...basic('SO.ONE', 'correct horse') })).toMatchObject({
        status: 429,
        verifications: 0,
      });
      // The same user from another address: no lockout by username.
      expect((await attempt(t, { ...from(2), ...basic('so.one', 'correct horse') })).status).toBe(200);
    });

    it('serves another username from the same address until the address ceiling, unknown usernames counted too', async () => {
      const client = from(11);
      for (let i = 0; i < 3; i++)
        expect((await attempt(t, { ...client, ...basic('so.one', 'wrong') })).status).toBe(401);
      expect((await attempt(t, { ...client, ...basic('so.two', 'correct horse') })).status).toBe(200);
      for (let i = 0; i < 3; i++)
        expect(await attempt(t, { ...client, ...basic(`nobody.${i}`, 'wrong') })).toEqual({
          status: 401,
          verifications: 1,
        });
      // Six failures from the address: every username is refused there now, without a hash.
      expect(await attempt(t, { ...client, ...basic('so.three', 'correct horse') })).toMatchObject({
        status: 429,
        verifications: 0,
      });
      expect(await attempt(t, { ...client, Authorization: 'Basic !!!' })).toMatchObject({
        status: 429,
        verifications: 0,
      });
      expect((await attempt(t, { ...from(12), ...basic('so.three', 'correct horse') })).status).toBe(200);
    });

    it('checks at most the ceiling of attempts sent at once, before any hash, and refuses the rest with 429', async () => {
      const sent = await burst(t, 40, (i) => ({ ...from(51), ...basic('so.one', `wrong ${i}`) }));
      expect(sent).toMatchObject({ statuses: { 401: 3, 429: 37 }, verifications: 3 });
      expect(withinAMinute(sent.waits)).toBe(true);
      // The address count likewise, over as many usernames.
      expect(await burst(t, 40, (i) => ({ ...from(52), ...basic(`nobody.${i}`, 'wrong') }))).toMatchObject({
        statuses: { 401: 6, 429: 34 },
        verifications: 6,
      });
    });

    it('checks the right password below the ceiling and gives its place back; remembered, it takes none', async () => {
      const client = from(61);
      for (let i = 0; i < 2; i++)
        expect(await attempt(t, { ...client, ...basic('so.four', `wrong ${i}`) })).toEqual({
          status: 401,
          verifications: 1,
        });
      expect(await attempt(t, { ...client, ...basic('so.four', 'correct horse') })).toEqual({
        status: 200,
        verifications: 1,
      });
      // Remembered now: calls at once are served without a check, none refused.
      expect(await burst(t, 10, () => ({ ...client, ...basic('so.four', 'correct horse') }))).toEqual({
        statuses: { 200: 10 },
        waits: [],
        verifications: 0,
      });
      // Two failures counted, so one more is checked before the ceiling.
      expect(await attempt(t, { ...client, ...basic('so.four', 'wrong 2') })).toEqual({
        status: 401,
        verifications: 1,
      });
      expect(await attempt(t, { ...client, ...basic('so.four', 'wrong 3') })).toMatchObject({
        status: 429,
        verifications: 0,
      });
    });

    it('does not count successful logins, nor requests without credentials', async () => {
      const client = from(21);
      for (let i = 0; i < 8; i++)
        expect((await attempt(t, { ...client, ...basic('so.two', 'correct horse') })).status).toBe(200);
      for (let i = 0; i < 8; i++) expect((await attempt(t, client)).status).toBe(401);
      for (let i = 0; i < 3; i++)
        expect((await attempt(t, { ...client, ...basic('so.two', 'wrong') })).status).toBe(401);
      expect((await attempt(t, { ...client, ...basic('so.two', 'wrong') })).status).toBe(429);
    });

    it('counts malformed Basic credentials against the address', async () => {
      const client = from(31);
      for (let i = 0; i < 6; i++)
        expect(
          (await attempt(t, { ...client, Authorization: `Basic ${Buffer.from(`no-colon-${i}`).toString('base64')}` }))
            .status,
        ).toBe(401);
      expect((await attempt(t, { ...client, ...basic('so.two', 'correct horse') })).status).toBe(429);
    });
  });

  describe('apikey', () => {
    let t: TestApp;
    let valid: string;
    beforeAll(async () => {
      t = await startThrottled(kind, store, { AUTH_MODE: 'apikey' });
      valid = (await giveKey(t, 'am.north')).key;
    });
    afterAll(() => t.close());

    it('counts failed keys per address, malformed and unknown ones included', async () => {
      const client = from(41);
      const [, secret] = valid.split('.');
      const failures = ['not-a-key', `0123456789abcdef.${secret}`, 'x', 'y', `fedcba9876543210.${secret}`, 'z'];
      for (const key of failures) expect((await attempt(t, { ...client, 'X-API-Key': key })).status).toBe(401);
      const past = await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, { ...client, 'X-API-Key': valid });
      expectRefusal(past, 'httpget', 429, `Too many requests; retry after ${past.headers['retry-after']} seconds.`);
      expect((await attempt(t, { ...from(42), 'X-API-Key': valid })).status).toBe(200);
    });

    it('checks at most the address ceiling of bad keys sent at once; a good key gives its place back', async () => {
      const [, secret] = valid.split('.');
      const sent = await burst(t, 40, (i) => ({
        ...from(43),
        'X-API-Key': `${i.toString(16).padStart(16, '0')}.${secret}`,
      }));
      expect(sent.statuses).toEqual({ 401: 6, 429: 34 });
      expect(withinAMinute(sent.waits)).toBe(true);
      const client = from(44);
      for (let i = 0; i < 5; i++) expect((await attempt(t, { ...client, 'X-API-Key': `bad ${i}` })).status).toBe(401);
      expect((await attempt(t, { ...client, 'X-API-Key': valid })).status).toBe(200);
      expect((await attempt(t, { ...client, 'X-API-Key': 'bad 5' })).status).toBe(401);
      expect((await attempt(t, { ...client, 'X-API-Key': valid })).status).toBe(429);
    });
  });
});
