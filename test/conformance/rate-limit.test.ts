/**
 * RATE_LIMIT_PER_MINUTE / RATE_LIMIT_BURST against the real app (docs/operations.md, "Rate
 * limiting"), on each engine with its default store (memory on SQLite, the database on PostgreSQL):
 * the request past a client's allowance is answered 429 with Retry-After in every binding, other
 * clients are unaffected, the allowance comes back when its window ends, and a client is its user
 * when authenticated, else its address (X-Forwarded-For only with TRUST_PROXY). Failed logins past
 * their ceiling (LOGIN_FAILURES_PER_MINUTE) get the same 429 in every binding, the rate limit off.
 *
 * 60 a minute with a burst of 3 is a window of 3 seconds: short enough to wait for in a test.
 * The counts live in rate-limiter-flexible's stores, which read the real clock.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { TestApp } from '../support/app';
import { startTestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { insertMasterData } from '../support/fixture';
import { BINDINGS, SYNC, basic, call, expectRefusal, givePassword } from '../auth/auth-support';

async function startLimited(kind: 'sqlite' | 'postgres', env: Record<string, string>): Promise<TestApp> {
  const t = await startTestApp({
    kind,
    env: { RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_BURST: '3', ...env },
    settings: { rateLimitStore: kind === 'postgres' ? 'postgres' : 'memory' },
  });
  await insertMasterData(t.engine.db);
  return { ...t, close: () => t.app.close().then(() => t.close()) };
}

/** Addresses no earlier run used (a PostgreSQL store outlives nothing, but keep clients apart anyway). */
const net = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
const from = (host: number | string) => ({ 'X-Forwarded-For': `${net}.${host}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)('rate limiting: %s', (kind) => {
  describe('by address, behind a trusted proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startLimited(kind, { TRUST_PROXY: 'true' });
    });
    afterAll(() => t.close());

    it.each(BINDINGS)('answers the 4th request of a window through %s with 429 and Retry-After', async (binding) => {
      const client = from(BINDINGS.indexOf(binding) + 1);
      for (let i = 0; i < 3; i++) expect((await call(t.app, binding, SYNC, 'HelloWorld', {}, client)).status).toBe(200);
      const res = await call(t.app, binding, SYNC, 'HelloWorld', {}, client);
      const seconds = Number(res.headers['retry-after']);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(3);
      expectRefusal(res, binding, 429, `Too many requests; retry after ${seconds} seconds.`);
    });

    it('leaves another client unaffected, and allows the client again once Retry-After has passed', async () => {
      const client = from(11);
      for (let i = 0; i < 3; i++) await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client);
      const refused = await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client);
      expect(refused.status).toBe(429);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from(12))).status).toBe(200);
      await sleep(Number(refused.headers['retry-after']) * 1000 + 100);
      for (let i = 0; i < 3; i++)
        expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client)).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client)).status).toBe(429);
    });

    it('takes the address the proxy appended, not one the client wrote before it', async () => {
      for (let i = 0; i < 3; i++)
        await call(t.app, 'httppost', SYNC, 'HelloWorld', {}, { 'X-Forwarded-For': `1.1.1.${i}, ${net}.21` });
      expect(
        (await call(t.app, 'httppost', SYNC, 'HelloWorld', {}, { 'X-Forwarded-For': `1.1.1.9, ${net}.21` })).status,
      ).toBe(429);
    });

    it('keeps the documents out of the count, and counts refusals under outcome="rate_limited"', async () => {
      const client = from(31);
      for (let i = 0; i < 4; i++) await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client);
      expect((await request(t.app).get(`${SYNC}?wsdl`).set(client)).status).toBe(200);
      const metrics = (await request(t.app).get('/metrics')).text;
      expect(metrics).toMatch(
        /asmx_requests_total\{service="SyncCustomers",operation="HelloWorld",binding="httpget",outcome="rate_limited"\} [1-9]/,
      );
    });
  });

  describe('failed logins past their ceiling, the rate limit off', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startLimited(kind, {
        RATE_LIMIT_PER_MINUTE: '0',
        AUTH_MODE: 'basic',
        TRUST_PROXY: 'true',
        LOGIN_FAILURES_PER_MINUTE: '2',
      });
      await givePassword(t, 'so.one', 'correct horse');
    });
    afterAll(() => t.close());

    it.each(BINDINGS)(
      'answers the right password after 2 wrong ones through %s with 429 and Retry-After',
      async (binding) => {
        const client = from(51 + BINDINGS.indexOf(binding));
        for (let i = 0; i < 2; i++)
          expect(
            (await call(t.app, binding, SYNC, 'HelloWorld', {}, { ...client, ...basic('so.one', 'wrong') })).status,
          ).toBe(401);
        const res = await call(
          t.app,
          binding,
          SYNC,
          'HelloWorld',
          {},
          { ...client, ...basic('so.one', 'correct horse') },
        );
        const seconds = Number(res.headers['retry-after']);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
        expectRefusal(res, binding, 429, `Too many requests; retry after ${seconds} seconds.`);
      },
    );
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const t = await startLimited(kind, { RATE_LIMIT_BURST: '2' });
    try {
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from(41))).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from(42))).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from(43))).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('counts an authenticated user as the client, and failed attempts against the address', async () => {
    const t = await startLimited(kind, { AUTH_MODE: 'basic' });
    try {
      await givePassword(t, 'so.one', 'correct horse');
      await givePassword(t, 'so.two', 'correct horse');
      for (let i = 0; i < 3; i++)
        expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse'))).status).toBe(
          200,
        );
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse'))).status).toBe(429);
      // Same address, another user: an allowance of its own.
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('so.two', 'correct horse'))).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await call(t.app, 'httpget', SYNC, 'HelloWorld')).status).toBe(401);
      const res = await call(t.app, 'soap11', SYNC, 'HelloWorld', {}, basic('so.one', 'wrong'));
      expectRefusal(res, 'soap11', 429, `Too many requests; retry after ${res.headers['retry-after']} seconds.`);
    } finally {
      await t.close();
    }
  });
});
