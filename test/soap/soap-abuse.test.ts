/**
 * Hostile and heavy SOAP traffic against the real app on a real socket (docs/architecture.md: no request
 * can crash the process or hang it; every failure has an answer): size limit, compressed bodies and
 * gzip bombs, clients that go away, deep documents, and 200 concurrent mixed requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { startTestApp, type TestApp } from '../support/app';
import {
  MAIN_PATH,
  SOAP11_TYPE,
  SOAP12_TYPE,
  SYNC_PATH,
  emptyResponse,
  envelope,
  helloWorldResponse,
  operationElement,
} from './soap-support';

const ns = 'http://tempuri.org/';
const LIMIT = 64 * 1024;
const pcn11 = envelope('1.1', operationElement('getPCNList', ns, { SalesOfficer: 'SO1' }));
const pcn12 = envelope('1.2', operationElement('getPCNList', ns, { SalesOfficer: 'SO1' }));
const soap11Headers = { 'Content-Type': SOAP11_TYPE, SOAPAction: `"${ns}getPCNList"` };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

let t: TestApp;
let server: http.Server;
let port: number;

beforeAll(async () => {
  t = await startTestApp({ env: { MAX_REQUEST_BYTES: String(LIMIT) } });
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

/** One request; the body goes out in chunks (no Content-Length) when chunked is set. */
function send(
  path: string,
  headers: http.OutgoingHttpHeaders,
  body: Buffer | string,
  chunked = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
    if (!chunked) return void req.end(bytes);
    for (let offset = 0; offset < bytes.length; offset += 16 * 1024)
      req.write(bytes.subarray(offset, offset + 16 * 1024));
    req.end();
  });
}

async function expectStillServing(): Promise<void> {
  const res = await send(MAIN_PATH, soap11Headers, pcn11);
  expect(res.status).toBe(200);
  expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
}

/** Padded in an element getPCNList does not declare (dropped): a code that long would be refused (docs/behaviour.md). */
function padded(version: '1.1' | '1.2', bytes: number): string {
  return envelope(version, operationElement('getPCNList', ns, { Padding: 'x'.repeat(bytes) }));
}

describe('the size limit (MAX_REQUEST_BYTES)', () => {
  test('a body just under the limit is served', async () => {
    const body = padded('1.1', LIMIT - 600);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMIT);
    const res = await send(MAIN_PATH, soap11Headers, body);
    expect(res.status).toBe(200);
  });

  test.each([
    ['SOAP 1.1 with Content-Length', '1.1' as const, false],
    ['SOAP 1.1 chunked', '1.1' as const, true],
    ['SOAP 1.2 with Content-Length', '1.2' as const, false],
    ['SOAP 1.2 chunked', '1.2' as const, true],
  ])("%s over the limit: 413, empty, in the version's content type", async (_name, version, chunked) => {
    const headers = version === '1.1' ? soap11Headers : { 'Content-Type': SOAP12_TYPE };
    const res = await send(MAIN_PATH, headers, padded(version, LIMIT * 4), chunked);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe(version === '1.1' ? SOAP11_TYPE : SOAP12_TYPE);
    expect(res.text).toBe('');
    await expectStillServing();
  });
});

describe('compressed bodies', () => {
  test.each([
    ['gzip', zlib.gzipSync],
    ['x-gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ])('Content-Encoding %s is inflated', async (encoding, compress) => {
    const res = await send(MAIN_PATH, { ...soap11Headers, 'Content-Encoding': encoding }, compress(Buffer.from(pcn11)));
    expect(res.status).toBe(200);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });

  test('a gzip bomb (16 MiB of zeros in 16 KiB) is cut off at the limit: 413', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(LIMIT);
    const res = await send(MAIN_PATH, { ...soap11Headers, 'Content-Encoding': 'gzip' }, bomb);
    expect(res.status).toBe(413);
    await expectStillServing();
  });

  test('an inflated envelope over the limit is 413 even when the compressed body is small', async () => {
    const body = zlib.gzipSync(Buffer.from(padded('1.2', LIMIT * 8)));
    expect(body.length).toBeLessThan(LIMIT);
    const res = await send(MAIN_PATH, { 'Content-Type': SOAP12_TYPE, 'Content-Encoding': 'gzip' }, body);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe(SOAP12_TYPE);
  });

  test.each([
    ['not gzip at all', Buffer.from(pcn11)],
    ['a truncated gzip stream', zlib.gzipSync(Buffer.from(pcn11)).subarray(0, 40)],
    ['a gzip stream with a corrupted middle', corrupt(zlib.gzipSync(Buffer.from(pcn11.repeat(20))))],
  ])('a broken gzip body (%s): 400, empty', async (_name, body) => {
    const res = await send(MAIN_PATH, { ...soap11Headers, 'Content-Encoding': 'gzip' }, body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe(SOAP11_TYPE);
    expect(res.text).toBe('');
    await expectStillServing();
  });

  test('an unknown Content-Encoding: 415', async () => {
    const res = await send(MAIN_PATH, { ...soap11Headers, 'Content-Encoding': 'compress' }, pcn11);
    expect(res.status).toBe(415);
    expect(res.text).toBe('');
  });

  test.each(['constructor', 'toString', '__proto__'])(
    'a Content-Type named %s, as every object has a member of that name: 415',
    async (mediaType) => {
      const res = await send(MAIN_PATH, { 'Content-Type': mediaType }, pcn11);
      expect(res.status).toBe(415);
      expect(res.text).toBe('');
    },
  );
});

function corrupt(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  for (let i = 20; i < copy.length - 10; i += 7) copy[i] ^= 0xa5;
  return copy;
}

describe('clients and documents that try to tie the server up', () => {
  test('a client that goes away in the middle of its body leaves the server serving', async () => {
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: MAIN_PATH,
        headers: { ...soap11Headers, 'Content-Length': '5000' },
        agent: false,
      });
      req.on('error', () => resolve());
      req.write(pcn11.slice(0, 100), () => setTimeout(() => req.destroy(), 50));
      req.on('close', () => resolve());
    });
    await expectStillServing();
  });

  // MAX_XML_DEPTH (64 by default): deeper documents are malformed input; soap-limits.test.ts has the rest.
  test('a deeply nested parameter (8 000 levels) is refused as malformed XML: 400, empty', async () => {
    const depth = 8000;
    const value = '<a>'.repeat(depth) + 'x' + '</a>'.repeat(depth);
    const res = await send(
      MAIN_PATH,
      soap11Headers,
      envelope('1.1', operationElement('getPCNList', ns, { SalesOfficer: value })),
    );
    expect(res.status).toBe(400);
    expect(res.text).toBe('');
    await expectStillServing();
  });

  test('deep nesting outside the Body is refused too; nesting within the bound is read', async () => {
    const header = (depth: number) => '<h xmlns="urn:x">' + '<a>'.repeat(depth) + '</a>'.repeat(depth) + '</h>';
    const deep = await send(
      MAIN_PATH,
      soap11Headers,
      envelope('1.1', operationElement('getPCNList', ns), header(8000)),
    );
    expect(deep.status).toBe(400);
    const within = await send(
      MAIN_PATH,
      soap11Headers,
      envelope('1.1', operationElement('getPCNList', ns), header(50)),
    );
    expect(within.status).toBe(200);
  });
});

describe('200 concurrent mixed requests', () => {
  const kinds = [
    {
      name: 'soap11',
      path: MAIN_PATH,
      headers: soap11Headers,
      body: pcn11,
      status: 200,
      text: emptyResponse('1.1', 'getPCNList', ns),
    },
    {
      name: 'soap12',
      path: MAIN_PATH,
      headers: { 'Content-Type': SOAP12_TYPE },
      body: pcn12,
      status: 200,
      text: emptyResponse('1.2', 'getPCNList', ns),
    },
    {
      name: 'hello',
      path: SYNC_PATH,
      headers: { 'Content-Type': SOAP12_TYPE },
      body: envelope('1.2', operationElement('HelloWorld', ns)),
      status: 200,
      text: helloWorldResponse('1.2', ns),
    },
    {
      name: 'unknown',
      path: MAIN_PATH,
      headers: { ...soap11Headers, SOAPAction: '"urn:nope"' },
      body: pcn11,
      status: 500,
      text: undefined,
    },
    { name: 'malformed', path: MAIN_PATH, headers: soap11Headers, body: pcn11.slice(0, 120), status: 400, text: '' },
    {
      name: 'media',
      path: MAIN_PATH,
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      status: 415,
      text: '',
    },
    {
      name: 'gzip',
      path: MAIN_PATH,
      headers: { ...soap11Headers, 'Content-Encoding': 'gzip' },
      body: zlib.gzipSync(Buffer.from(pcn11)),
      status: 200,
      text: emptyResponse('1.1', 'getPCNList', ns),
    },
    { name: 'large', path: MAIN_PATH, headers: soap11Headers, body: padded('1.1', LIMIT * 2), status: 413, text: '' },
  ];

  test('each is answered as specified, and the server answers afterwards', async () => {
    const requests = Array.from({ length: 200 }, (_, i) => kinds[i % kinds.length]);
    const answers = await Promise.all(requests.map((kind) => send(kind.path, kind.headers, kind.body)));
    answers.forEach((answer, i) => {
      const kind = requests[i];
      expect({ kind: kind.name, status: answer.status }).toEqual({ kind: kind.name, status: kind.status });
      if (kind.text !== undefined) expect(answer.text).toBe(kind.text);
    });
    await expectStillServing();
  });
});
