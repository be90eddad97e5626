/**
 * An answer whose bytes are all known goes to the socket in one write, its headers and body together,
 * with its Content-Length (src/send.ts; docs/operations.md, "Request path"): SOAP responses and faults
 * of both versions, the HTTP bindings' XML, JSON and plain errors, and the probes. Every write the
 * server's side of the connection is given is recorded, and the client's bytes are compared with it.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { listen, type Listening } from '../support/listen';
import { envelope, MAIN_PATH, operationElement, SOAP11_TYPE, SOAP12_TYPE, SYNC_PATH } from '../soap/soap-support';

const NS = 'http://tempuri.org/';

interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every byte the client received: the status line, the headers and the body. */
  received: Buffer;
  /** The sizes of the writes the server gave its side of the connection, in order. */
  writes: number[];
}

interface Case {
  label: string;
  status: number;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const CASES: Case[] = [
  {
    label: 'SOAP 1.1 HelloWorld',
    status: 200,
    method: 'POST',
    path: SYNC_PATH,
    headers: { 'Content-Type': SOAP11_TYPE, SOAPAction: `"${NS}HelloWorld"` },
    body: envelope('1.1', operationElement('HelloWorld', NS)),
  },
  {
    label: 'SOAP 1.2 getPCNList (a read whose result the contract discards)',
    status: 200,
    method: 'POST',
    path: MAIN_PATH,
    headers: { 'Content-Type': SOAP12_TYPE },
    body: envelope('1.2', operationElement('getPCNList', NS, { SalesOfficer: 'SO01' })),
  },
  {
    label: 'SOAP 1.1 fault (an invalid value)',
    status: 500,
    method: 'POST',
    path: MAIN_PATH,
    headers: { 'Content-Type': SOAP11_TYPE, SOAPAction: `"${NS}getPCNList"` },
    body: envelope('1.1', operationElement('getPCNList', NS, { PaymentType: 'CREDIT' })),
  },
  { label: 'HTTP GET HelloWorld (XML)', status: 200, method: 'GET', path: `${SYNC_PATH}/HelloWorld` },
  {
    label: 'HTTP GET getPCNList (JSON rows)',
    status: 200,
    method: 'GET',
    path: `${MAIN_PATH}/getPCNList?SalesOfficer=so01`,
  },
  {
    label: 'HTTP POST getPCNList with an invalid value (a JSON error)',
    status: 200,
    method: 'POST',
    path: `${MAIN_PATH}/getPCNList`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'PaymentType=CREDIT',
  },
  {
    label: 'HTTP GET of an operation that does not exist (a plain error)',
    status: 500,
    method: 'GET',
    path: `${MAIN_PATH}/NoSuchOperation`,
  },
  { label: 'GET /health', status: 200, method: 'GET', path: '/health' },
];

/** Records the size of every non-empty write given to a socket of `server` from now on, per socket. */
function recordWrites(server: http.Server): WeakMap<Socket, number[]> {
  const writes = new WeakMap<Socket, number[]>();
  server.on('connection', (socket: Socket) => {
    const sizes: number[] = [];
    writes.set(socket, sizes);
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      const size =
        typeof chunk === 'string'
          ? Buffer.byteLength(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8')
          : chunk.length;
      if (size > 0) sizes.push(size);
      return write(chunk, ...rest);
    };
  });
  return writes;
}

/** One request on a connection of its own; resolves once the server has closed its side of it. */
function exchange(listening: Listening, writes: WeakMap<Socket, number[]>, c: Case): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    let serverSocket: Socket | undefined;
    let response: http.IncomingMessage | undefined;
    listening.server.once('connection', (socket: Socket) => (serverSocket = socket));
    const headers = Object.assign({ Connection: 'close' }, c.headers);
    const req = http.request({
      host: '127.0.0.1',
      port: listening.port,
      method: c.method,
      path: c.path,
      headers,
      agent: false,
    });
    req.on('socket', (socket: Socket) => {
      const received: Buffer[] = [];
      // The raw bytes as they arrive, before the client's parser: the whole answer, headers included.
      socket.prependListener('data', (chunk: Buffer) => received.push(chunk));
      socket.on('close', () => {
        if (!response || !serverSocket) return reject(new Error(`${c.label}: no answer`));
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          received: Buffer.concat(received),
          writes: writes.get(serverSocket) ?? [],
        });
      });
    });
    req.on('response', (res) => {
      response = res;
      res.resume();
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

describe.each(ENGINES)('answers in one socket write: %s', (kind) => {
  let t: TestApp;
  let listening: Listening;
  let writes: WeakMap<Socket, number[]>;
  suiteApp({ kind, masterData: true }, (started) => (t = started));
  beforeAll(async () => {
    listening = await listen(t.app);
    writes = recordWrites(listening.server);
  });
  afterAll(() => listening?.stop());

  it.each(CASES)('$label: the status line, headers and body in one write, with Content-Length', async (c) => {
    const got = await exchange(listening, writes, c);
    expect(got.status).toBe(c.status);
    const head = got.received.indexOf('\r\n\r\n') + 4;
    expect(head).toBeGreaterThan(4);
    expect(got.headers['content-length']).toBe(String(got.received.length - head));
    expect(got.headers['transfer-encoding']).toBeUndefined();
    expect(got.writes).toEqual([got.received.length]);
  });
});
