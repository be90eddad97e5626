/**
 * RATE_LIMIT_PER_MINUTE / RATE_LIMIT_BURST against the real app (docs/operations.md, "Rate
 * limiting"): the request past a client's allowance is answered 429 with Retry-After in every
 * binding, other clients are unaffected, the allowance refills with time, and a client is its user
 * when authenticated, else its address (X-Forwarded-For only with TRUST_PROXY). The app's clock is
 * one the test moves, so refills happen exactly when the test says.
 */
import request from 'supertest';
import type { Clock } from '../../src/operations/types';
import type { TestApp } from '../support/app';
import { startTestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { insertMasterData } from '../support/fixture';
import { BINDINGS, SYNC, basic, call, expectRefusal, givePassword } from './auth-support';

class MovableClock implements Clock {
  private ms = Date.parse('2026-06-15T10:00:00Z');
  now(): Date {
    return new Date(this.ms);
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

async function startLimited(kind: 'sqlite' | 'postgres', env: Record<string, string>, clock: Clock): Promise<TestApp> {
  const t = await startTestApp({ kind, env: { RATE_LIMIT_PER_MINUTE: '3', ...env }, clock });
  await insertMasterData(t.engine.db);
  return t;
}

const from = (address: string) => ({ 'X-Forwarded-For': address });

describe.each(ENGINES)('rate limiting: %s', (kind) => {
  describe('by address, behind a trusted proxy', () => {
    let t: TestApp;
    const clock = new MovableClock();
    beforeAll(async () => {
      t = await startLimited(kind, { TRUST_PROXY: 'true' }, clock);
    });
    afterAll(() => t.close());

    it.each(BINDINGS)('answers the 4th request of a minute through %s with 429 and Retry-After', async (binding) => {
      const client = from(`10.0.0.${BINDINGS.indexOf(binding) + 1}`);
      for (let i = 0; i < 3; i++) expect((await call(t.app, binding, SYNC, 'HelloWorld', {}, client)).status).toBe(200);
      const res = await call(t.app, binding, SYNC, 'HelloWorld', {}, client);
      // 3 a minute: the next request is allowed 20 seconds after the allowance ran out.
      expectRefusal(res, binding, 429, 'Too many requests; retry after 20 seconds.');
      expect(res.headers['retry-after']).toBe('20');
    });

    it('leaves another client unaffected and refills with time', async () => {
      const client = from('10.0.1.1');
      for (let i = 0; i < 3; i++) await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client)).status).toBe(429);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from('10.0.1.2'))).status).toBe(200);
      clock.advance(19);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client)).headers['retry-after']).toBe('1');
      clock.advance(1);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client)).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client)).status).toBe(429);
    });

    it('takes the address the proxy appended, not one the client wrote before it', async () => {
      for (let i = 0; i < 3; i++) await call(t.app, 'httppost', SYNC, 'HelloWorld', {}, from(`1.1.1.${i}, 10.0.2.1`));
      expect((await call(t.app, 'httppost', SYNC, 'HelloWorld', {}, from('1.1.1.9, 10.0.2.1'))).status).toBe(429);
    });

    it('keeps the documents out of the count, and counts refusals under outcome="rate_limited"', async () => {
      const client = from('10.0.3.1');
      for (let i = 0; i < 4; i++) await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, client);
      expect((await request(t.app).get(`${SYNC}?wsdl`).set(client)).status).toBe(200);
      const metrics = (await request(t.app).get('/metrics')).text;
      expect(metrics).toMatch(/asmx_requests_total\{service="SyncCustomers",operation="HelloWorld",binding="httpget",outcome="rate_limited"\} [1-9]/);
    });
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    const t = await startLimited(kind, { RATE_LIMIT_BURST: '2' }, new MovableClock());
    try {
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from('10.9.0.1'))).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from('10.9.0.2'))).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, from('10.9.0.3'))).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('counts an authenticated user as the client, and failed attempts against the address', async () => {
    const t = await startLimited(kind, { AUTH_MODE: 'basic' }, new MovableClock());
    try {
      await givePassword(t, 'so.one', 'correct horse');
      await givePassword(t, 'so.two', 'correct horse');
      for (let i = 0; i < 3; i++) expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse'))).status).toBe(200);
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse'))).status).toBe(429);
      // Same address, another user: an allowance of its own.
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('so.two', 'correct horse'))).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await call(t.app, 'httpget', SYNC, 'HelloWorld')).status).toBe(401);
      const res = await call(t.app, 'soap11', SYNC, 'HelloWorld', {}, basic('so.one', 'wrong'));
      expectRefusal(res, 'soap11', 429, 'Too many requests; retry after 20 seconds.');
    } finally {
      await t.close();
    }
  });
});
