/**
 * Who reads /metrics (docs/operations.md, "Metrics"): with authentication on and no METRICS_PORT, the
 * main port answers it to an ADMIN's password or API key only, everyone else the bindings' 401 (the
 * same guard: failed logins counted, a wrong user told nothing more than wrong credentials); with
 * AUTH_MODE=off it stays public, and METRICS_PORT's own listener stays as it is (a network boundary).
 */
import request from 'supertest';
import { loadSettings } from '../../src/config';
import { startServer } from '../../src/server';
import type { TestApp } from '../support/app';
import { basic, giveKey, givePassword, startAuthApp } from '../auth/auth-support';

const DENIED = 'Access is denied.\r\n';
const CHALLENGE = 'Basic realm="MobileApp", charset="UTF-8"';
const SERIES = /^# TYPE asmx_requests_total counter$/m;

let basicApp: TestApp;
let keyApp: TestApp;
let anyApp: TestApp;
let openApp: TestApp;
let adminKey: string;
let managerKey: string;

beforeAll(async () => {
  basicApp = await startAuthApp('sqlite', { AUTH_MODE: 'basic', LOGIN_FAILURES_PER_MINUTE: '3' });
  keyApp = await startAuthApp('sqlite', { AUTH_MODE: 'apikey' });
  anyApp = await startAuthApp('sqlite', { AUTH_MODE: 'any' });
  openApp = await startAuthApp('sqlite', {});
  for (const t of [basicApp, anyApp]) {
    await givePassword(t, 'admin', 'admin horse battery');
    await givePassword(t, 'zm.north', 'manager horse battery');
  }
  adminKey = (await giveKey(keyApp, 'admin')).key;
  managerKey = (await giveKey(keyApp, 'zm.north')).key;
});

afterAll(async () => {
  for (const t of [basicApp, keyApp, anyApp, openApp]) await t?.close();
});

describe('/metrics on the main port with authentication on', () => {
  it('answers an ADMIN password, GET and HEAD, in any letter case', async () => {
    const admin = basic('admin', 'admin horse battery');
    const res = await request(basicApp.app).get('/metrics').set(admin);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(SERIES);
    expect((await request(basicApp.app).head('/Metrics').set(admin)).status).toBe(200);
  });

  it.each([
    ['no credentials', {}],
    ['a wrong password', basic('admin', 'wrong horse battery')],
    ['an unknown user', basic('nobody', 'admin horse battery')],
    ["a zonal manager's right password", basic('zm.north', 'manager horse battery')],
  ])("refuses %s with the bindings' 401", async (_label, headers: Record<string, string>) => {
    const res = await request(basicApp.app).get('/metrics').set(headers);
    expect([res.status, res.headers['www-authenticate'], res.headers['content-type'], res.text]).toEqual([
      401,
      CHALLENGE,
      'text/plain; charset=utf-8',
      DENIED,
    ]);
    expect(res.text).not.toMatch(SERIES);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("counts its failed logins with the bindings' (LOGIN_FAILURES_PER_MINUTE): guessing here is no way around them", async () => {
    const guess = basic('zm.south', 'guessed horse battery');
    for (let i = 0; i < 3; i++) expect((await request(basicApp.app).get('/metrics').set(guess)).status).toBe(401);
    expect((await request(basicApp.app).get('/metrics').set(guess)).status).toBe(429);
  });

  it("answers an ADMIN API key under AUTH_MODE=apikey, refuses another user's key and no key", async () => {
    expect((await request(keyApp.app).get('/metrics').set('X-API-Key', adminKey)).status).toBe(200);
    for (const headers of [{ 'X-API-Key': managerKey }, {}, basic('admin', 'admin horse battery')]) {
      const res = await request(keyApp.app).get('/metrics').set(headers);
      expect([res.status, res.headers['www-authenticate'], res.text]).toEqual([401, undefined, DENIED]);
    }
  });

  it('answers an ADMIN password under AUTH_MODE=any', async () => {
    expect((await request(anyApp.app).get('/metrics').set(basic('admin', 'admin horse battery'))).status).toBe(200);
    expect((await request(anyApp.app).get('/metrics')).status).toBe(401);
  });

  it('leaves the other probes public', async () => {
    expect((await request(basicApp.app).get('/health')).status).toBe(200);
    expect((await request(basicApp.app).get('/ready')).status).toBe(200);
  });
});

describe('/metrics elsewhere', () => {
  it('is public with AUTH_MODE=off, as before', async () => {
    const res = await request(openApp.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(SERIES);
  });

  it('with METRICS_PORT, is answered there without credentials, the main port 404', async () => {
    const env = {
      AUTH_MODE: 'basic',
      METRICS_PORT: '0',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      SHUTDOWN_DRAIN_MS: '0',
    };
    const running = await startServer(loadSettings(env), { seedEmbedded: false });
    try {
      expect((await fetch(`${running.metricsAddress}/metrics`)).status).toBe(200);
      expect((await fetch(`${running.address}/metrics`)).status).toBe(404);
    } finally {
      await running.stop();
    }
  });
});
