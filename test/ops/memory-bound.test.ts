/**
 * No client can make the server hold memory out of proportion (docs/behaviour.md, "Length limits";
 * docs/operations.md, "Answer cache"): the real server, in a process with a small heap, takes 150
 * distinct values of 2 MB each, in a code parameter and in a list parameter, over HTTP POST (whose
 * reads the answer cache keeps) and over v2 SOAP, and still answers afterwards. Each value is refused
 * as too long, so none becomes part of a kept key; and a key is kept as a fixed-size digest anyway.
 */
import http from 'node:http';
import { spawnPerTest } from './spawned-server';

const MAIN = '/API/MobileAppWebService.asmx';
const V2 = '/API/v2/MobileAppWebService.asmx';
const V2_NS = 'http://tempuri.org/v2/';
const VALUES = 150;
/** Well below what 150 kept values of 2 MB take (a server that kept them exhausts it). */
const HEAP_MB = 160;

interface Answer {
  status: number;
  body: string;
}

function post(port: number, path: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A value of 2 MB of its own: the number first, so no two are alike. */
const large = (i: number) => `${i}-${'X'.repeat(2_000_000)}`;

function httpPost(port: number, operation: string, name: string, value: string): Promise<Answer> {
  return post(
    port,
    `${MAIN}/${operation}`,
    { 'Content-Type': 'application/x-www-form-urlencoded' },
    `${name}=${encodeURIComponent(value)}`,
  );
}

function v2Soap(port: number, operation: string, name: string, value: string): Promise<Answer> {
  const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${operation} xmlns="${V2_NS}"><${name}>${value}</${name}></${operation}></soap:Body></soap:Envelope>`;
  return post(port, V2, { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${V2_NS}${operation}"` }, body);
}

/** Per binding, the values go alternately to a code parameter and to a list parameter (as a list's second item). */
const BINDINGS: ReadonlyArray<{
  label: string;
  send: (port: number, i: number) => Promise<Answer>;
  field: (i: number) => string;
}> = [
  {
    label: 'HTTP POST',
    send: (port, i) =>
      i % 2 === 0
        ? httpPost(port, 'getPCNList', 'SalesOfficer', large(i))
        : httpPost(port, 'getOpeningBalance', 'CustomerIds', `C001,${large(i)}`),
    field: (i) => (i % 2 === 0 ? 'SalesOfficer' : 'CustomerIds'),
  },
  {
    label: 'v2 SOAP',
    send: (port, i) =>
      i % 2 === 0
        ? v2Soap(port, 'getPCNList', 'Customer', large(i))
        : v2Soap(port, 'getSalesSummaryRecords', 'Zones', `NORTH,${large(i)}`),
    field: (i) => (i % 2 === 0 ? 'Customer' : 'Zones'),
  },
];

describe('a server with a small heap, sent many distinct 2 MB parameter values', () => {
  const spawn = spawnPerTest();

  it(`survives ${VALUES} of them over each of ${BINDINGS.map((binding) => binding.label).join(' and ')}, refusing each, and answers afterwards`, async () => {
    // A SQLite file: the answer cache keeps nothing of a private in-memory database.
    const server = spawn({
      DATABASE_URL: 'sqlite:./memory-bound.db',
      AUTH_MODE: 'off',
      NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    });
    const port = await server.port();
    let failure: string | undefined;
    const refusals = new Set<string>();
    for (let i = 0; i < VALUES && failure === undefined; i++) {
      for (const { label, field, send } of BINDINGS) {
        const answer = await send(port, i).catch((error: Error) => {
          failure = `${label}, value ${i + 1}: ${error.message}`;
          return undefined;
        });
        if (answer === undefined) break;
        // Refused naming the field, in the binding's form (the JSON envelope or the v2 ServiceError).
        const refused =
          answer.body.includes('INVALID_PARAMETER') &&
          new RegExp(`"Field":"${field(i)}"|<Field>${field(i)}</Field>`).test(answer.body);
        if (!refused) refusals.add(`${label}: not refused: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
      }
    }
    const exited = server.child.exitCode ?? server.child.signalCode;
    expect({ failure, exited, heapLimit: /heap limit/.test(server.stderr()) }).toEqual({
      failure: undefined,
      exited: null,
      heapLimit: false,
    });
    expect([...refusals]).toEqual([]);
    const after = await httpPost(port, 'getPCNList', 'SalesOfficer', 'SO01');
    expect(after).toEqual({ status: 200, body: expect.stringContaining('"Success":true') });
  }, 300_000);
});
