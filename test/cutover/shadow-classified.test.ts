/**
 * The proxy decides what a request is with the server's own classifier (src/classifier): between two
 * real servers, a write in any spelling the server runs reaches the primary once and never the
 * candidate (without --mirror-writes), a spelling the server refuses is a write too, and a body built
 * to make a regular expression backtrack costs the proxy's other clients nothing.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { main as shadowMain } from '../../scripts/shadow';
import { startShadow, SHADOW_DEFAULTS, type Shadow } from '../../src/cutover/shadow';
import { startTestApp, type TestApp } from '../support/app';
import { storedWarrantyRequests, warrantyFields } from '../support/fixture';
import { listen, listenTestApp, type Listening, type ListeningApp } from '../support/listen';
import { rawRequest, type RawRequest } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';
const NS = 'http://tempuri.org/';
const SOAP11 = 'text/xml; charset=utf-8';
const SOAP12 = 'application/soap+xml; charset=utf-8';
const ENV11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENV12 = 'http://www.w3.org/2003/05/soap-envelope';

let primary: ListeningApp;
let candidate: TestApp;
let candidateServer: Listening;
/** Every request the candidate was sent. */
const reachedCandidate: string[] = [];

beforeAll(async () => {
  primary = await listenTestApp({ masterData: true });
  candidate = await startTestApp({ masterData: true });
  await candidate.app.ready;
  candidateServer = await listen((req: IncomingMessage, res: ServerResponse) => {
    reachedCandidate.push(`${req.method} ${req.url}`);
    candidate.app(req, res);
  });
});
afterAll(async () => {
  await primary?.stop();
  await candidateServer?.stop();
  await candidate?.close();
});

function startProxy(): Promise<Shadow> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'shadow-classified-'));
  return startShadow({
    ...SHADOW_DEFAULTS,
    primary: primary.baseUrl,
    candidate: candidateServer.baseUrl,
    port: 0,
    host: '127.0.0.1',
    out,
    noiseEvery: 0,
  });
}

const form = (id: string) => new URLSearchParams(warrantyFields(id)).toString();
const elements = (id: string) =>
  Object.entries(warrantyFields(id))
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
const envelope = (envNs: string, inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
const warranty = (id: string) => `<CreateWarrantyRequest xmlns="${NS}">${elements(id)}</CreateWarrantyRequest>`;

/** Each spelling of a CreateWarrantyRequest call, and whether this server runs it (one row) or refuses it (none). */
const SPELLINGS: [string, (id: string) => RawRequest, 0 | 1][] = [
  [
    'HTTP POST to a percent-encoded path',
    (id) => ({
      method: 'POST',
      path: `${MAIN}/CreateWarranty%52equest`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(id),
    }),
    1,
  ],
  [
    'HTTP POST to a lower-case service path',
    (id) => ({
      method: 'POST',
      path: `${MAIN.toLowerCase()}/CreateWarrantyRequest`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(id),
    }),
    1,
  ],
  [
    'HTTP POST to a lower-case method name',
    (id) => ({
      method: 'POST',
      path: `${MAIN}/createwarrantyrequest`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(id),
    }),
    0,
  ],
  [
    'SOAP 1.2 with another operation in a SOAPAction header',
    (id) => ({
      method: 'POST',
      path: MAIN,
      headers: { 'content-type': SOAP12, soapaction: `"${NS}getPCNList"` },
      body: envelope(ENV12, warranty(id)),
    }),
    1,
  ],
  [
    'SOAP 1.2 whose action names another operation',
    (id) => ({
      method: 'POST',
      path: MAIN,
      headers: { 'content-type': `${SOAP12}; action="${NS}getPCNList"` },
      body: envelope(ENV12, warranty(id)),
    }),
    0,
  ],
  [
    'SOAP 1.1 without SOAPAction, a comment before the body element',
    (id) => ({
      method: 'POST',
      path: MAIN,
      headers: { 'content-type': SOAP11 },
      body: envelope(ENV11, `<!--x-->${warranty(id)}`),
    }),
    1,
  ],
  [
    'SOAP 1.1 with a prefixed body element',
    (id) => ({
      method: 'POST',
      path: MAIN,
      headers: { 'content-type': SOAP11 },
      body: envelope(
        ENV11,
        `<m:CreateWarrantyRequest xmlns:m="${NS}">${elements(id).replace(/<(\/?)(\w+)>/g, '<$1m:$2>')}</m:CreateWarrantyRequest>`,
      ),
    }),
    1,
  ],
  [
    'SOAP 1.1 with its envelope cut short',
    (id) => ({
      method: 'POST',
      path: MAIN,
      headers: { 'content-type': SOAP11, soapaction: `"${NS}CreateWarrantyRequest"` },
      body: envelope(ENV11, warranty(id)).slice(0, -30),
    }),
    0,
  ],
];

describe('writes in every spelling', () => {
  let shadow: Shadow;
  beforeAll(async () => {
    shadow = await startProxy();
  });
  afterAll(() => shadow?.close());

  it.each(SPELLINGS)(
    '%s: one row on the primary per call it runs, the candidate untouched',
    async (name, spelled, rows) => {
      const id = `spelling-${name.replace(/\W+/g, '-')}`;
      const before = reachedCandidate.length;
      for (let i = 0; i < 3; i++) await rawRequest(shadow.port, spelled(id));
      await shadow.settled();
      // A ClientRequestId makes a retried write one row: three calls the server runs are one row.
      expect(await storedWarrantyRequests(primary.engine.db, id)).toHaveLength(rows);
      expect(await storedWarrantyRequests(candidate.engine.db, id)).toHaveLength(0);
      expect(reachedCandidate.slice(before)).toEqual([]);
    },
  );

  it('runs each call once on the primary: twenty calls without ClientRequestId are twenty rows', async () => {
    const count = async () =>
      Number(
        (
          await primary.engine.db
            .selectFrom('warranty_requests')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const fields = warrantyFields('x');
    delete (fields as Partial<typeof fields>).ClientRequestId;
    for (let i = 0; i < 20; i++) {
      await rawRequest(shadow.port, {
        method: 'POST',
        path: `${MAIN}/CreateWarranty%52equest`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...fields, SerialNo: `SN-twenty-${i}` }).toString(),
      });
    }
    await shadow.settled();
    expect((await count()) - before).toBe(20);
    expect(
      shadow.report
        .summary()
        .operations.find((row) => row.operation === 'CreateWarrantyRequest' && row.binding === 'post'),
    ).toMatchObject({ compared: 0 });
  });
});

describe('a body that would make a regular expression backtrack', () => {
  it('costs the proxy and its other clients nothing', async () => {
    const shadow = await startProxy();
    try {
      const body = '<Body'.repeat(13_107);
      const started = Date.now();
      const hostile = Array.from({ length: 10 }, () =>
        rawRequest(shadow.port, { method: 'POST', path: MAIN, headers: { 'content-type': SOAP11 }, body }),
      );
      const other = rawRequest(shadow.port, {
        method: 'GET',
        path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001`,
      }).then((answer) => ({ answer, ms: Date.now() - started }));
      const answers = await Promise.all(hostile);
      const { answer, ms } = await other;
      await shadow.settled();
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400));
      expect(answer.status).toBe(200);
      // The old body pattern took most of a second for each of these, on the event loop.
      expect(ms).toBeLessThan(1000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(shadow.report.summary().operations.find((row) => row.binding === 'soap11')).toMatchObject({
        operation: '(undeclared)',
        notMirrored: 10,
        compared: 0,
      });
    } finally {
      await shadow.close();
    }
  });
});

describe("the servers' settings as options", () => {
  it('refuses a base path or namespace the server would refuse, naming it, with exit code 2', async () => {
    for (const [flag, value, named] of [
      ['--base-path', 'Mobile', 'BASE_PATH'],
      ['--api-namespace', 'not a uri', 'API_NAMESPACE'],
    ]) {
      const lines: string[] = [];
      const argv = ['--primary', primary.baseUrl, '--candidate', candidateServer.baseUrl, flag, value];
      expect(await shadowMain(argv, { out: (line) => lines.push(line), err: (line) => lines.push(line) })).toBe(2);
      expect(lines[0]).toContain(`shadow: ${named}: '${value}'`);
      expect(lines.join('\n')).toContain('[--base-path <path>]');
    }
  });
});
