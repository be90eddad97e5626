/**
 * Shadow mode with a legacy-like primary: a stand-in that answers as docs/contract.md records the
 * legacy ASMX stack answering (an empty 200 without a Content-Type for main-service operations over
 * HTTP GET/POST, `500 Missing parameter: X.` for a missing one, `{"d":null}` for a JSON body, WSDL and
 * disco addresses with the server's own port, the SOAPAction winning over the Body, a SOAP 1.2 envelope
 * answered as such whatever its Content-Type, its own help page, no body limit of this server's), and
 * passes everything else on to a real server of this project. In front of this server, those
 * differences count as expected and nothing else is reported.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startShadow, SHADOW_DEFAULTS, type Shadow } from '../../src/cutover/shadow';
import { mainServiceOperations } from '../../src/services/registry';
import { listen, listenTestApp, type Listening, type ListeningApp } from '../support/listen';
import { rawRequest, soapCall, type RawRequest } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';
/** This server's body limit in this test (MAX_REQUEST_BYTES). */
const BODY_LIMIT = 64 * 1024;

let ours: ListeningApp;
let legacy: Listening;
let shadow: Shadow;

/** The stand-in legacy server in front of `ours`. */
function legacyStandIn(): Promise<Listening> {
  return listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://legacy');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const op = /\/MobileAppWebService\.asmx\/(\w+)$/.exec(url.pathname)?.[1];
      const declared = mainServiceOperations.find((candidate) => candidate.name === op);
      const type = String(req.headers['content-type'] ?? '');
      if (declared !== undefined && type.startsWith('application/json')) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"d":null}');
        return;
      }
      if (declared !== undefined) {
        const sent = req.method === 'GET' ? url.searchParams : new URLSearchParams(body.toString());
        const missing = declared.params.find((name) => !sent.has(name));
        if (missing !== undefined)
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`Missing parameter: ${missing}.`);
        else res.writeHead(200, { 'content-length': '0' }).end();
        return;
      }
      if (url.pathname.startsWith('/API/v2/') || url.pathname === '/API/openapi.json') {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
        return;
      }
      const action = /"http:\/\/tempuri\.org\/(\w+)"/.exec(String(req.headers.soapaction ?? ''))?.[1];
      if (
        req.method === 'POST' &&
        action !== undefined &&
        (!body.includes(`<${action} `) || body.length > BODY_LIMIT)
      ) {
        // The action wins, whatever the Body holds and however long it is.
        res
          .writeHead(200, { 'content-type': 'text/xml; charset=utf-8' })
          .end(
            `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${action}Response xmlns="http://tempuri.org/" /></soap:Body></soap:Envelope>`,
          );
        return;
      }
      if (req.method === 'GET' && url.search === '' && url.pathname.endsWith('.asmx')) {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<html><body><h1>MobileAppWebService Web Service</h1></body></html>');
        return;
      }
      const headers = { ...req.headers };
      if (type.startsWith('text/xml') && body.includes('http://www.w3.org/2003/05/soap-envelope'))
        headers['content-type'] = 'application/soap+xml; charset=utf-8';
      // Everything else as this server answers it; WSDL and disco addresses with the legacy server's own port.
      const ownPort = String(legacy.port);
      const forward = http.request(
        { host: '127.0.0.1', port: new URL(ours.baseUrl).port, method: req.method, path: req.url, headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            let text = Buffer.concat(parts);
            if (/^(wsdl|disco)$/i.test(url.search.slice(1)))
              text = Buffer.from(text.toString().replace(/(http:\/\/127\.0\.0\.1:)\d+/g, `$1${ownPort}`));
            const headers = { ...answer.headers, 'content-length': String(text.length) };
            res.writeHead(answer.statusCode ?? 500, headers).end(text);
          });
        },
      );
      forward.end(body);
    });
  });
}

beforeAll(async () => {
  ours = await listenTestApp({ masterData: true, env: { MAX_REQUEST_BYTES: String(BODY_LIMIT) } });
  legacy = await legacyStandIn();
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'shadow-legacy-'));
  // Calls this server refuses count as writes (never mirrored by default): these are reads the legacy one runs.
  shadow = await startShadow({
    ...SHADOW_DEFAULTS,
    primary: legacy.baseUrl,
    candidate: ours.baseUrl,
    port: 0,
    host: '127.0.0.1',
    out,
    noiseEvery: 0,
    mirrorWrites: true,
  });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const traffic: RawRequest[] = [
    { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` },
    { method: 'GET', path: `${MAIN}/FillAreaManagers` },
    { method: 'POST', path: `${MAIN}/FillAreaManagers`, headers: form, body: 'username=admin' },
    { method: 'POST', path: `${MAIN}/getPCNList`, headers: form, body: 'SalesOfficer=SO01' },
    soapCall('1.1', MAIN, 'http://tempuri.org/', 'getPCNList', { SalesOfficer: 'SO01' }),
    soapCall('1.2', MAIN, 'http://tempuri.org/', 'FillAreaManagers', { username: 'admin' }),
    { method: 'GET', path: `${MAIN}?WSDL` },
    { method: 'GET', path: `${MAIN}?disco` },
    { method: 'GET', path: '/API/SyncCustomers.asmx/HelloWorld' },
    {
      method: 'POST',
      path: `${MAIN}/FillAreaManagers`,
      headers: { 'content-type': 'application/json' },
      body: '{"username":"admin"}',
    },
    {
      ...soapCall('1.1', MAIN, 'http://tempuri.org/', 'getPCNList', { SalesOfficer: 'SO01' }),
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/getPCNDetails"' },
    },
    {
      ...soapCall('1.2', MAIN, 'http://tempuri.org/', 'getPCNList', { SalesOfficer: 'SO01' }),
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/getPCNList"' },
    },
    soapCall('1.1', MAIN, 'http://tempuri.org/', 'getPCNInvoices', { PCNNO: 'x'.repeat(BODY_LIMIT) }),
    { method: 'GET', path: MAIN },
    soapCall('1.1', '/API/v2/MobileAppWebService.asmx', 'http://tempuri.org/v2/', 'FillAreaManagers', {
      username: 'admin',
    }),
    { method: 'GET', path: '/API/openapi.json' },
  ];
  for (const request of traffic) expect((await rawRequest(shadow.port, request)).status).toBeLessThan(600);
  await shadow.settled();
});
afterAll(async () => {
  await shadow?.close();
  await legacy?.stop();
  await ours?.stop();
});

it('counts the deliberate differences as expected, by rule, and reports nothing else', () => {
  const rows = shadow.report.summary().operations;
  expect(fs.readFileSync(path.join(shadow.report.dir, 'differences.jsonl'), 'utf8')).toBe('');
  expect(rows.reduce((sum, row) => sum + row.different, 0)).toBe(0);
  expect(fs.readFileSync(path.join(shadow.report.dir, 'differences.jsonl'), 'utf8')).toBe('');
  const rules = (operation: string, binding: string) =>
    rows.find((row) => row.operation === operation && row.binding === binding)?.expectedRules;
  expect(rules('FillAreaManagers', 'get')).toEqual({ 'json-result-for-empty-200': 1, 'missing-parameter-accepted': 1 });
  expect(rules('getPCNList', 'post')).toEqual({ 'missing-parameter-accepted': 1 });
  expect(rules('wsdl', 'document')).toEqual({ 'document-addresses': 1 });
  expect(rules('disco', 'document')).toEqual({ 'document-addresses': 1 });
  expect(rules('help', 'document')).toEqual({ 'help-page': 1 });
  expect(rules('FillAreaManagers', 'post')).toEqual({ 'json-result-for-empty-200': 1, 'json-body-as-fields': 1 });
  expect(rules('getPCNDetails', 'soap11')).toEqual({ 'action-and-body-disagree': 1 });
  expect(rules('getPCNList', 'soap11')).toEqual({ 'soap12-envelope-as-text-xml': 1 });
  expect(rules('getPCNInvoices', 'soap11')).toEqual({ 'request-limits': 1 });
  // This server's own contract, which the legacy one does not have: counted, not compared.
  expect(rows.find((row) => row.contract === 'v2')).toMatchObject({ notInContract: 1, compared: 0 });
  expect(rows.find((row) => row.operation === 'openapi')).toMatchObject({ notInContract: 1, compared: 0 });
  for (const [operation, binding] of [
    ['FillAreaManagers', 'soap12'],
    ['HelloWorld', 'get'],
  ]) {
    expect(rows.find((row) => row.operation === operation && row.binding === binding)).toMatchObject({
      compared: 1,
      same: 1,
      expected: 0,
    });
  }
});
