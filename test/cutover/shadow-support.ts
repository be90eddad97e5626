/**
 * Raw HTTP exchanges for the migration tools' tests (the bytes as sent and received, nothing
 * decoded), and two real servers of this project whose data differ in one name, with a proxy between.
 */
import fs from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startShadow, SHADOW_DEFAULTS, type Shadow, type ShadowOptions } from '../../src/cutover/shadow';
import { listenTestApp, type ListeningApp } from '../support/listen';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export function rawRequest(port: number, request: RawRequest, host = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host, port, method: request.method, path: request.path, headers: request.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

const ENVELOPES = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
} as const;

/** A SOAP call of `operation` with its parameters, in the envelope and with the headers of `version`. */
export function soapCall(
  version: '1.1' | '1.2',
  path: string,
  namespace: string,
  operation: string,
  params: Record<string, string>,
): RawRequest {
  const inner = Object.entries(params)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPES[version]}"><soap:Body><${operation} xmlns="${namespace}">${inner}</${operation}></soap:Body></soap:Envelope>`;
  const headers: Record<string, string> =
    version === '1.1'
      ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${namespace}${operation}"` }
      : { 'content-type': `application/soap+xml; charset=utf-8; action="${namespace}${operation}"` };
  return { method: 'POST', path, headers, body };
}

/** A primary and a candidate on the same data but for one name: area manager AM02 is "Anita Southern" on the candidate. */
export async function differingPair(): Promise<[ListeningApp, ListeningApp]> {
  const pair = await Promise.all([listenTestApp({ masterData: true }), listenTestApp({ masterData: true })]);
  await pair[1].engine.db.updateTable('users').set({ name: 'Anita Southern' }).where('id', '=', 'AM02').execute();
  return pair;
}

/** A shadow proxy between the two on a free port of 127.0.0.1, its report in a new folder, no noise learnt unless asked. */
export function proxyBetween(
  primary: Pick<ListeningApp, 'baseUrl'>,
  candidate: Pick<ListeningApp, 'baseUrl'>,
  overrides: Partial<ShadowOptions> = {},
): Promise<Shadow> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'shadow-'));
  const options = {
    ...SHADOW_DEFAULTS,
    primary: primary.baseUrl,
    candidate: candidate.baseUrl,
    port: 0,
    host: '127.0.0.1',
    out,
    noiseEvery: 0,
  };
  return startShadow({ ...options, ...overrides });
}

/** The differing pair, started before a test file's tests and stopped after them; `proxy` starts a proxy between the two. */
export function differingPairForFile(): {
  readonly primary: ListeningApp;
  readonly candidate: ListeningApp;
  proxy(overrides?: Partial<ShadowOptions>): Promise<Shadow>;
} {
  let pair: [ListeningApp, ListeningApp] | undefined;
  beforeAll(async () => {
    pair = await differingPair();
  });
  afterAll(async () => {
    await Promise.all(pair?.map((app) => app.stop()) ?? []);
  });
  const started = () =>
    pair ??
    (() => {
      throw new Error('the pair starts in beforeAll');
    })();
  return {
    get primary() {
      return started()[0];
    },
    get candidate() {
      return started()[1];
    },
    proxy: (overrides = {}) => proxyBetween(started()[0], started()[1], overrides),
  };
}
