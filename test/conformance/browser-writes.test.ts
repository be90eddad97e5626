/**
 * Writes a browser could be made to send for its user (docs/behaviour.md, "Writes and browsers";
 * src/asmx/write-refusal.ts). With authentication on, a write over HTTP GET is refused (405, Allow:
 * POST), and a write a browser marks as sent from another site (Sec-Fetch-Site other than same-origin,
 * or an Origin other than the server's own, "null" included) is refused with 403 in every binding's
 * own form; nothing is written (read back from the database). Reads are not refused, the mobile app's
 * requests (neither header) pass, and with authentication off everything stays as the legacy server had it.
 */
import request from 'supertest';
import type { TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { storedWarrantyRequests, warrantyFields } from '../support/fixture';
import { MAIN_PATH } from '../support/interface-table';
import { basic, givePassword, startAuthApp, suiteAuthApp } from '../auth/auth-support';
import { BINDINGS, exchange, refusal, type BindingName } from './drivers';

const POSTED: readonly BindingName[] = ['soap11', 'soap12', 'httppost'];
const CROSS_SITE = 'A write sent from another site is refused.';
const HOST = 'mobile.example:8080';

/** Headers a browser sends from a page of another site (or of an opaque origin). */
const FOREIGN: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }],
  ['a foreign Origin', { Origin: 'https://attacker.example' }],
  ['the right host over another scheme', { Origin: `https://${HOST}` }],
  ['Origin: null', { Origin: 'null' }],
  ['the own Origin but Sec-Fetch-Site: cross-site', { Origin: `http://${HOST}`, 'Sec-Fetch-Site': 'cross-site' }],
];

/** Whether the answer is the binding's success for a write (the SOAP response, or the JSON Success). */
function succeeded(binding: BindingName, res: request.Response): boolean {
  if (res.status !== 200) return false;
  if (binding === 'soap11' || binding === 'soap12')
    return res.text.includes('<CreateWarrantyRequestResponse xmlns="http://tempuri.org/" />');
  return (JSON.parse(res.text) as { Success: boolean }).Success;
}

describe.each(ENGINES)('writes from browsers: %s', (kind) => {
  describe('authentication on', () => {
    let t: TestApp;
    const auth = basic('so.one', 'correct horse');
    suiteAuthApp(
      kind,
      { AUTH_MODE: 'basic' },
      (started) => (t = started),
      async () => {
        await givePassword(t, 'so.one', 'correct horse');
        await givePassword(t, 'admin', 'admin horse');
      },
    );

    const write = (binding: BindingName, id: string, headers: Record<string, string> = {}) =>
      exchange(t.app, binding, MAIN_PATH, 'CreateWarrantyRequest', warrantyFields(id), {
        ...auth,
        Host: HOST,
        ...headers,
      });
    const stored = (id: string) => storedWarrantyRequests(t.engine.db, id);

    it("a write over HTTP GET is 405 with Allow: POST, in the binding's plain-text form, and writes nothing", async () => {
      const res = await write('httpget', 'get-write');
      expect(refusal('httpget', res)).toEqual({
        status: 405,
        message: 'CreateWarrantyRequest changes data and must be sent with POST.',
      });
      expect(res.headers.allow).toBe('POST');
      expect(await stored('get-write')).toHaveLength(0);
    });

    it('so is a write over HTTP GET of the v2 contract', async () => {
      const query = new URLSearchParams(warrantyFields('get-write-v2')).toString();
      const res = await request(t.app).get(`/API/v2/MobileAppWebService.asmx/CreateWarrantyRequest?${query}`).set(auth);
      expect([res.status, res.headers.allow, res.headers['content-type']]).toEqual([
        405,
        'POST',
        'text/plain; charset=utf-8',
      ]);
      expect(await stored('get-write-v2')).toHaveLength(0);
    });

    describe.each(POSTED)('%s', (binding) => {
      it.each(FOREIGN)("a write with %s is 403 in the binding's form and writes nothing", async (label, headers) => {
        const id = `foreign-${binding}-${label}`;
        const res = await write(binding, id, headers);
        expect(refusal(binding, res)).toEqual({ status: 403, message: CROSS_SITE });
        expect(await stored(id)).toHaveLength(0);
      });

      it.each([
        ['neither header (the mobile app, SOAP clients)', {}],
        [
          'the own Origin and Sec-Fetch-Site: same-origin',
          { Origin: `http://${HOST}`, 'Sec-Fetch-Site': 'same-origin' },
        ],
        [
          'the own Origin, its default port written out',
          { Host: 'mobile.example', Origin: 'http://mobile.example:80' },
        ],
      ])('a write with %s is written', async (label, headers) => {
        const id = `own-${binding}-${label}`;
        expect(succeeded(binding, await write(binding, id, headers))).toBe(true);
        expect(await stored(id)).toHaveLength(1);
      });
    });

    it('counts the refusals under outcome="forbidden" (403) and "protocol_error" (405) in the metrics', async () => {
      await write('httppost', 'counted-403', { Origin: 'null' });
      await write('httpget', 'counted-405');
      const metrics = (await request(t.app).get('/metrics').set(basic('admin', 'admin horse'))).text;
      expect(metrics).toMatch(
        /asmx_requests_total\{service="MobileAppWebService",operation="CreateWarrantyRequest",binding="httppost",outcome="forbidden"\} [1-9]/,
      );
      expect(metrics).toMatch(
        /asmx_requests_total\{service="MobileAppWebService",operation="CreateWarrantyRequest",binding="httpget",outcome="protocol_error"\} [1-9]/,
      );
    });

    it.each(BINDINGS)('a read sent cross-site is answered over %s', async (binding) => {
      const res = await exchange(
        t.app,
        binding,
        MAIN_PATH,
        'getPCNList',
        { SalesOfficer: 'SO01' },
        { ...auth, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://attacker.example' },
      );
      expect(res.status).toBe(200);
    });
  });

  describe("the server's own origin", () => {
    /**
     * An app with `env` writes what comes from `own` and refuses, writing nothing, what comes from
     * `other` (each sent over `binding` to Host internal:8080, with `headers`).
     */
    async function expectOwnOrigin(
      env: Record<string, string>,
      binding: BindingName,
      headers: Record<string, string>,
      own: string,
      other: string,
    ): Promise<void> {
      const t = await startAuthApp(kind, { AUTH_MODE: 'basic', ...env });
      try {
        await givePassword(t, 'so.one', 'correct horse');
        const send = (id: string, origin: string) =>
          exchange(t.app, binding, MAIN_PATH, 'CreateWarrantyRequest', warrantyFields(id), {
            ...basic('so.one', 'correct horse'),
            Host: 'internal:8080',
            ...headers,
            Origin: origin,
          });
        expect(succeeded(binding, await send('own', own))).toBe(true);
        expect(refusal(binding, await send('other', other))).toEqual({ status: 403, message: CROSS_SITE });
        expect(await storedWarrantyRequests(t.engine.db, 'own')).toHaveLength(1);
        expect(await storedWarrantyRequests(t.engine.db, 'other')).toHaveLength(0);
      } finally {
        await t.close();
      }
    }

    it("is PUBLIC_URL's when it is set, whatever the Host header", () =>
      expectOwnOrigin(
        { PUBLIC_URL: 'https://api.example.com/mobile' },
        'httppost',
        {},
        'https://api.example.com',
        'http://internal:8080',
      ));

    it('is the one the trusted proxy forwarded with TRUST_PROXY', () =>
      expectOwnOrigin(
        { TRUST_PROXY: 'true' },
        'soap11',
        { 'X-Forwarded-Host': 'attacker.example, lb.example', 'X-Forwarded-Proto': 'https' },
        'https://lb.example',
        'https://attacker.example',
      ));
  });

  describe('authentication off (the legacy behaviour)', () => {
    let t: TestApp;
    suiteAuthApp(kind, {}, (started) => (t = started));

    it.each(BINDINGS)('a write over %s from another site is written', async (binding) => {
      const id = `legacy-${binding}`;
      const res = await exchange(t.app, binding, MAIN_PATH, 'CreateWarrantyRequest', warrantyFields(id), {
        'Sec-Fetch-Site': 'cross-site',
        Origin: 'null',
      });
      expect(succeeded(binding, res)).toBe(true);
      expect(await storedWarrantyRequests(t.engine.db, id)).toHaveLength(1);
    });
  });
});
