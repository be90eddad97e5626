/**
 * AUTH_MODE against the real app (docs/operations.md, "Authentication"): off by default; Basic, API
 * key, or either; every binding of both services refuses a request without valid credentials with
 * 401 in its own shape; the documents stay public; the authenticated user reaches the operation.
 */
import request from 'supertest';
import { authDb, revokeKey } from '../../src/auth/credential-store';
import type { TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import {
  BINDINGS,
  MAIN,
  SYNC,
  basic,
  call,
  expectRefusal,
  giveKey,
  givePassword,
  startAuthApp,
  suiteAuthApp,
} from '../auth/auth-support';

const DENIED = 'Access is denied.';
const CHALLENGE = 'Basic realm="MobileApp", charset="UTF-8"';

function helloWorldAnswered(res: request.Response): void {
  expect(res.status).toBe(200);
  expect(res.text).toContain('Hello World');
}

describe.each(ENGINES)('authentication: %s', (kind) => {
  describe('off (the default)', () => {
    let t: TestApp;
    suiteAuthApp(kind, {}, (started) => (t = started));

    it.each(BINDINGS)('answers %s without credentials', async (binding) => {
      helloWorldAnswered(await call(t.app, binding, SYNC, 'HelloWorld'));
    });

    it('passes no principal: FillAreaManagers without a username lists every area manager', async () => {
      const res = await call(t.app, 'httpget', MAIN, 'FillAreaManagers');
      expect(
        JSON.parse(res.text)
          .Data.map((row: Record<string, string>) => Object.values(row)[0])
          .sort(),
      ).toEqual(['AM01', 'AM02']);
    });
  });

  describe('basic', () => {
    let t: TestApp;
    suiteAuthApp(
      kind,
      { AUTH_MODE: 'basic' },
      (started) => (t = started),
      async () => {
        await givePassword(t, 'so.one', 'correct horse');
        await givePassword(t, 'so.four', 'inactive horse');
        await givePassword(t, 'admin', 'admin horse');
        await t.engine.db.updateTable('users').set({ active: 0 }).where('id', '=', 'SO04').execute();
      },
    );

    it.each(BINDINGS)('answers %s for the right password', async (binding) => {
      helloWorldAnswered(await call(t.app, binding, SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse')));
    });

    it.each(BINDINGS)(
      "refuses %s without credentials: 401, the Basic challenge, the binding's own answer",
      async (binding) => {
        const res = await call(t.app, binding, MAIN, 'FillAreaManagers');
        expectRefusal(res, binding, 401, DENIED);
        expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      },
    );

    it.each(BINDINGS)('refuses %s with a wrong password', async (binding) => {
      const res = await call(t.app, binding, SYNC, 'HelloWorld', {}, basic('so.one', 'wrong horse'));
      expectRefusal(res, binding, 401, DENIED);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    });

    it('refuses an inactive user, an unknown user, a user without a password and a malformed header', async () => {
      for (const headers of [
        basic('so.four', 'inactive horse'),
        basic('nobody', 'correct horse'),
        basic('so.two', ''),
        { Authorization: 'Basic !!!' },
        { Authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
        { Authorization: 'Bearer abc' },
      ]) {
        expectRefusal(await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, headers), 'httpget', 401, DENIED);
      }
    });

    it('matches the username without regard to case and ignores an API key header', async () => {
      helloWorldAnswered(await call(t.app, 'httppost', SYNC, 'HelloWorld', {}, basic('SO.One', 'correct horse')));
      const { key } = await giveKey(t, 'so.one');
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, { 'X-API-Key': key })).status).toBe(401);
    });

    it('keeps the documents and the probes public', async () => {
      for (const url of [`${MAIN}?wsdl`, `${MAIN}?disco`, MAIN, `${SYNC}?WSDL`, '/health']) {
        expect((await request(t.app).get(url)).status).toBe(200);
      }
    });

    it('bounds the operation by the authenticated user: an SO without a username sees only their own area manager', async () => {
      const res = await call(t.app, 'httpget', MAIN, 'FillAreaManagers', {}, basic('so.one', 'correct horse'));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).Data.map((row: Record<string, string>) => Object.values(row)[0])).toEqual(['AM01']);
    });

    it.each(['soap11', 'soap12'] as const)(
      "passes the principal through %s too: another zone's area manager is refused",
      async (binding) => {
        const res = await call(
          t.app,
          binding,
          MAIN,
          'FillAreaManagers',
          { username: 'am.south' },
          basic('so.one', 'correct horse'),
        );
        expect(res.status).toBe(500);
        expect(res.text).toContain(
          binding === 'soap11' ? '<faultcode>soap:Client</faultcode>' : '<soap:Value>soap:Sender</soap:Value>',
        );
      },
    );

    it('counts refusals under outcome="unauthorized" in the metrics', async () => {
      await call(t.app, 'httpget', SYNC, 'HelloWorld');
      // With authentication on, /metrics is an ADMIN's (test/ops/metrics-access.test.ts).
      const metrics = (await request(t.app).get('/metrics').set(basic('admin', 'admin horse'))).text;
      expect(metrics).toMatch(
        /asmx_requests_total\{service="SyncCustomers",operation="HelloWorld",binding="httpget",outcome="unauthorized"\} [1-9]/,
      );
    });
  });

  describe('apikey', () => {
    let t: TestApp;
    let valid: string;
    let revoked: string;
    let inactive: string;
    suiteAuthApp(
      kind,
      { AUTH_MODE: 'apikey', AUTH_API_KEY_HEADER: 'X-Mobile-Key' },
      (started) => (t = started),
      async () => {
        valid = (await giveKey(t, 'am.north')).key;
        const old = await giveKey(t, 'am.north');
        await revokeKey(t.engine.db, old.keyId, new Date().toISOString());
        revoked = old.key;
        inactive = (await giveKey(t, 'so.four')).key;
        await t.engine.db.updateTable('users').set({ active: 0 }).where('id', '=', 'SO04').execute();
        await givePassword(t, 'am.north', 'correct horse');
      },
    );

    it.each(BINDINGS)('answers %s for a valid key in the configured header', async (binding) => {
      helloWorldAnswered(await call(t.app, binding, SYNC, 'HelloWorld', {}, { 'X-Mobile-Key': valid }));
    });

    it('records when a key was last used', async () => {
      const keyId = valid.split('.')[0];
      const row = await authDb(t.engine.db)
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('key_id', '=', keyId)
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    });

    it.each(BINDINGS)('refuses %s with a revoked key, without a Basic challenge', async (binding) => {
      const res = await call(t.app, binding, MAIN, 'FillAreaManagers', {}, { 'X-Mobile-Key': revoked });
      expectRefusal(res, binding, 401, DENIED);
      expect(res.headers['www-authenticate']).toBeUndefined();
    });

    it("refuses a malformed key, an unknown key, a wrong secret, an inactive user's key and Basic credentials", async () => {
      const [keyId, secret] = valid.split('.');
      const otherSecret = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
      for (const headers of [
        { 'X-Mobile-Key': 'not-a-key' },
        { 'X-Mobile-Key': `0123456789abcdef.${secret}` },
        { 'X-Mobile-Key': `${keyId}.${otherSecret}` },
        { 'X-Mobile-Key': inactive },
        { 'X-API-Key': valid },
        basic('am.north', 'correct horse'),
      ]) {
        expectRefusal(await call(t.app, 'httppost', SYNC, 'HelloWorld', {}, headers), 'httppost', 401, DENIED);
      }
    });

    it('takes a revocation into account at the next request', async () => {
      const fresh = await giveKey(t, 'am.north');
      helloWorldAnswered(await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, { 'X-Mobile-Key': fresh.key }));
      await revokeKey(t.engine.db, fresh.keyId, new Date().toISOString());
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, { 'X-Mobile-Key': fresh.key })).status).toBe(401);
    });
  });

  describe('any', () => {
    let t: TestApp;
    let key: string;
    suiteAuthApp(
      kind,
      { AUTH_MODE: 'any', AUTH_REALM: 'Field Sales' },
      (started) => (t = started),
      async () => {
        key = (await giveKey(t, 'zm.north')).key;
        await givePassword(t, 'zm.north', 'correct horse');
      },
    );

    it('accepts either credential', async () => {
      helloWorldAnswered(await call(t.app, 'soap11', SYNC, 'HelloWorld', {}, { 'X-API-Key': key }));
      helloWorldAnswered(await call(t.app, 'soap12', SYNC, 'HelloWorld', {}, basic('zm.north', 'correct horse')));
    });

    it('refuses neither, with the challenge of the configured realm', async () => {
      const res = await call(t.app, 'soap12', SYNC, 'HelloWorld');
      expectRefusal(res, 'soap12', 401, DENIED);
      expect(res.headers['www-authenticate']).toBe('Basic realm="Field Sales", charset="UTF-8"');
    });

    it('judges a request that carries a key by the key alone', async () => {
      const res = await call(
        t.app,
        'httpget',
        SYNC,
        'HelloWorld',
        {},
        { 'X-API-Key': 'bad', ...basic('zm.north', 'correct horse') },
      );
      expect(res.status).toBe(401);
    });

    it('answers a SOAP request without a SOAP media type as SOAP 1.1', async () => {
      const res = await request(t.app).post(MAIN).set('Content-Type', 'text/plain').send('x').buffer(true);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(res.text).toContain(`<faultstring>${DENIED}</faultstring>`);
    });
  });

  it.each(BINDINGS)(
    "answers %s with the server's own failure when the credentials cannot be checked",
    async (binding) => {
      const t = await startAuthApp(kind, { AUTH_MODE: 'basic' });
      await t.close();
      const res = await call(t.app, binding, SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse'));
      expect(res.status).toBe(500);
      if (binding === 'soap11') expect(res.text).toContain('<faultcode>soap:Server</faultcode>');
      else if (binding === 'soap12') expect(res.text).toContain('<soap:Value>soap:Receiver</soap:Value>');
      else expect(res.text).toBe('Server was unable to process request.\r\n');
    },
  );
});
