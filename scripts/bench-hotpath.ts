/**
 * The protocol hot path side by side with the libraries it stands on, in one run on one machine
 * (docs/performance.md): this server against
 *   - bare soap.listen on the same WSDL files (wsdl/*.wsdl, namespace filled in as the server does),
 *     every operation answering the empty response and HelloWorld "Hello World";
 *   - an Express 5 route per request answering exactly the bytes this server answered (fetched from it
 *     first), GET routes and POST routes with express.urlencoded;
 *   - raw node:http answering a fixed SOAP reply, and for each HTTP row the bytes this server answered:
 *     the ceiling of that row, as no server on node:http answers faster than node:http alone.
 * The HTTP getPCNList rows are also measured with the answer cache off (ANSWER_CACHE_MB=0): every request
 * runs its query, as the first one after a write does. The light reads (lightRows) are measured one
 * request at a time with the answer cache off, in one run each: the CPU time each costs the server, the
 * event loop's apart from its other threads' (the SQLite readers, V8's helpers). The tracing rows (group
 * `tracing`) run SOAP 1.1 and HTTP GET getPCNList against this server three times over: tracing off,
 * OpenTelemetry with parentbased_traceidratio 0.1, and every request sampled, exporting over OTLP to a
 * sink that takes and drops the spans (pinned beside wrk, as a collector would run elsewhere), and
 * against raw node:http answering the same bytes under this server's span code with the same three
 * settings: what the spans alone cost a server that does nothing else.
 * Each server runs in its own process pinned to core 1 (taskset), wrk pinned to core 0. This server and
 * its peers run side by side, and each row is measured against this server and then at once against
 * its peer (sideBySide): never two servers under load at once. A row is measured in --rounds rounds
 * (3), each a run against this server and one against its peer; its figures are the medians of the
 * rounds (one run's p99 on these shared machines moves with whatever else the machine did in those
 * seconds), its ratio the median of the rounds' ratios, and the second table shows every round's
 * p99 / p50. With --peer-build DIR (a checkout with its dist/ built) the peers are left out: the soap
 * and http rows run against this build and DIR's alike (compareBuilds), each started as its own npm
 * start starts it, what a change did to them. Not part of the test suite.
 *
 *   npm run build && node dist/scripts/bench-hotpath.js [--database URL] [--duration 8] [--rounds 3] [--connections 50]
 *                                                       [--port P] [--rows soap,http,light,tracing] [--match TEXT] [--profile DIR]
 *                                                       [--peer-build DIR]
 *
 * --database defaults to sqlite:./data/bench-10.db (seeded with scale-10 demo data when empty). The
 * server runs with its default settings and LOG_LEVEL=info (its log lines go to a file of the run,
 * with node --trace-gc's lines: the second table gives, per row, the collections of the server's main
 * thread while it was measured; docs/architecture.md, "Garbage on the request path"), and the CPU time
 * the server's process (all its threads: the event loop, the SQLite workers, V8's helpers) spent per
 * answered request, from /proc (Linux). --profile writes a V8 CPU profile of this server (node --cpu-prof)
 * into DIR.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import * as soap from 'soap';
import { startTracing } from '../src/tracing/sdk';
import { firstUserOf } from '../src/demo-data/operation-calls';
import { traceOperation } from '../src/tracing/operation-span';
import { traceRequests } from '../src/tracing/server-span';
import {
  nodeCommand,
  percentile,
  PINNED,
  procCpuMs,
  runWrk,
  SERVE,
  settle,
  spawnPinned,
  stopServer,
  waitUntilAnswers,
  withBenchData,
} from './bench-server';

/** This checkout: the build measured. */
const ROOT = path.join(__dirname, '..', '..');
const NS = 'http://tempuri.org/';
const MAIN = '/API/MobileAppWebService.asmx';
const SYNC = '/API/SyncCustomers.asmx';
const ENVELOPE = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
} as const;
const SOAP_TYPE = { '1.1': 'text/xml; charset=utf-8', '1.2': 'application/soap+xml; charset=utf-8' } as const;
const FORM_TYPE = 'application/x-www-form-urlencoded';

const ROW_GROUPS = ['soap', 'http', 'light', 'tracing'] as const;
type RowGroup = (typeof ROW_GROUPS)[number];

interface Options {
  database: string;
  duration: number;
  /** Runs per row and server; the figures are their medians. */
  rounds: number;
  connections: number;
  port: number;
  rows: Set<RowGroup>;
  /** Only the rows whose label contains this text. */
  match?: string;
  profile?: string;
  /** The main.js of another build, served beside this one instead of the peers. */
  peerBuild?: string;
}

/** One request of the battery: what wrk sends. */
interface Row {
  label: string;
  group: 'soap' | 'http';
  method: 'GET' | 'POST';
  target: string;
  headers: Record<string, string>;
  body?: string;
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors (timeouts included). */
  errors: number;
  /** The server's main thread's collections during the measured run, when its output was kept. */
  gc?: Collections;
  /** Requests answered in the measured run. */
  requests: number;
  /** CPU time of the server's whole process per answered request (ms), set once it was measured. */
  cpuPerRequest?: number;
  /** The same, of its main thread (the event loop) alone. */
  loopCpuPerRequest?: number;
  /** p99 / p50 of each round, set on a measure made of rounds (medianOf): every one the tables print. */
  tailRatios?: number[];
  /** The rate of each round, likewise. */
  roundRates?: number[];
}

interface Collections {
  scavenges: number[];
  fullCollections: number[];
}

/** Pauses (ms) in node --trace-gc lines, of the isolate with the most scavenges (the main thread; the SQLite workers are isolates too). */
function collectionsOf(text: string): Collections {
  const byIsolate = new Map<string, Collections>();
  // Node 24 writes `pooled: N MB, ` before the pause; Node 22 does not.
  for (const m of text.matchAll(
    /\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: (Scavenge|Mark-Compact)[^,\n]*, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms/g,
  )) {
    let isolate = byIsolate.get(m[1]);
    if (!isolate) byIsolate.set(m[1], (isolate = { scavenges: [], fullCollections: [] }));
    (m[2] === 'Scavenge' ? isolate.scavenges : isolate.fullCollections).push(Number(m[3]));
  }
  const isolates = [...byIsolate.values()].sort((a, b) => b.scavenges.length - a.scavenges.length);
  return isolates[0] ?? { scavenges: [], fullCollections: [] };
}

function gcLine(label: string, m: Measure): string {
  const gc = m.gc!;
  const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
  const max = (xs: number[]) => (xs.length === 0 ? NaN : Math.max(...xs));
  const tails = m.tailRatios!.map((r) => `${r.toFixed(1)}x`).join(' ');
  return `| ${label} | ${tails} | ${m.cpuPerRequest!.toFixed(3)} ms | ${gc.scavenges.length} | ${fmt(mean(gc.scavenges))} | ${fmt(max(gc.scavenges))} | ${gc.fullCollections.length} | ${fmt(max(gc.fullCollections))} |`;
}

/** What this server answered to a row over HTTP, for the Express peer to answer alike. */
interface Recorded {
  method: 'GET' | 'POST';
  path: string;
  contentType: string;
  body: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    database: 'sqlite:./data/bench-10.db',
    duration: 8,
    rounds: 3,
    connections: 50,
    port: 18095,
    rows: new Set(ROW_GROUPS),
  };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    if (argv[i] === '--database') options.database = value;
    else if (argv[i] === '--duration') options.duration = Number(value);
    else if (argv[i] === '--rounds') options.rounds = Math.max(1, Math.trunc(Number(value)));
    else if (argv[i] === '--connections') options.connections = Number(value);
    else if (argv[i] === '--port') options.port = Number(value);
    else if (argv[i] === '--profile') options.profile = path.resolve(value);
    else if (argv[i] === '--match') options.match = value;
    else if (argv[i] === '--peer-build') {
      options.peerBuild = path.resolve(value);
      if (!fs.existsSync(path.join(options.peerBuild, 'dist', 'src', 'main.js')))
        throw new Error(`${options.peerBuild}: build it first (npm run build there)`);
    } else if (argv[i] === '--rows')
      options.rows = new Set(
        value.split(',').filter((r): r is RowGroup => (ROW_GROUPS as readonly string[]).includes(r)),
      );
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return options;
}

/** What the rows ask for: the first sales officer and the first three customers of the database (seeding scale 10 into an empty one first). */
interface Codes {
  officer: string;
  customers: string[];
}

async function benchCodes(database: string): Promise<Codes> {
  return withBenchData(database, 10, async (engine) => {
    const officer = await firstUserOf(engine.db, 'SO');
    const customers = await engine.db.selectFrom('customers').select('code').orderBy('code').limit(3).execute();
    return { officer, customers: customers.map((c) => c.code) };
  });
}

function soapRow(version: '1.1' | '1.2', servicePath: string, operation: string, params: Record<string, string>): Row {
  const values = Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('');
  const body =
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPE[version]}"><soap:Body>` +
    `<${operation} xmlns="${NS}">${values}</${operation}></soap:Body></soap:Envelope>`;
  const headers: Record<string, string> = { 'Content-Type': SOAP_TYPE[version] };
  if (version === '1.1') headers.SOAPAction = `"${NS}${operation}"`;
  const what = Object.keys(params).length ? `${operation}(${Object.values(params).join(', ')})` : operation;
  return { label: `SOAP ${version} ${what}`, group: 'soap', method: 'POST', target: servicePath, headers, body };
}

function httpRows(officer: string): Row[] {
  const form = new URLSearchParams({ SalesOfficer: officer }).toString();
  return [
    { label: 'HTTP GET HelloWorld', group: 'http', method: 'GET', target: `${SYNC}/HelloWorld`, headers: {} },
    {
      label: 'HTTP POST HelloWorld',
      group: 'http',
      method: 'POST',
      target: `${SYNC}/HelloWorld`,
      headers: { 'Content-Type': FORM_TYPE },
      body: '',
    },
    {
      label: `HTTP GET getPCNList(${officer})`,
      group: 'http',
      method: 'GET',
      target: `${MAIN}/getPCNList?${form}`,
      headers: {},
    },
    {
      label: `HTTP POST getPCNList(${officer})`,
      group: 'http',
      method: 'POST',
      target: `${MAIN}/getPCNList`,
      headers: { 'Content-Type': FORM_TYPE },
      body: form,
    },
  ];
}

/**
 * The light reads, one request at a time with the answer cache off: what a read costs the server when
 * it runs its queries (an officer's PCN list; an officer's activities and complaints over the last
 * whole month, which the demo data fills; three customers' opening balances for that month).
 */
function lightRows(codes: Codes, options: Options): Row[] {
  if (!options.rows.has('light')) return [];
  const today = new Date();
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const month = { Month: String(first.getUTCMonth() + 1), Year: String(first.getUTCFullYear()) };
  const get = (label: string, operation: string, params: Record<string, string>): Row => ({
    label,
    group: 'http',
    method: 'GET',
    target: `${MAIN}/${operation}?${new URLSearchParams(params).toString()}`,
    headers: {},
  });
  return [
    get(`getPCNList(${codes.officer})`, 'getPCNList', { SalesOfficer: codes.officer }),
    get(`ActivityReportAndComplaints(${codes.officer}, ${day(first).slice(0, 7)})`, 'ActivityReportAndComplaints', {
      SalesOfficer: codes.officer,
      FromDate: day(first),
      ToDate: day(last),
    }),
    get(
      `getOpeningBalance(3 customers, ${day(first).slice(0, 7)})`,
      'getOpeningBalance',
      Object.assign({ CustomerIds: codes.customers.join(',') }, month),
    ),
  ].filter((row) => options.match === undefined || row.label.includes(options.match));
}

/** One server with the answer cache off; per light read its answer's size, rates and CPU per request, the event loop's apart. */
async function measureLight(
  command: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  rows: Row[],
  options: Options,
  dir: string,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const lines = [
    '| light read (HTTP GET) | answer | req/s | p50 | p99 | server CPU per request | event loop | other threads |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const server = await startMeasured('light reads', command, env, port, '/');
  try {
    for (const row of rows) {
      const answer = await request(port, row);
      if (answer.status !== 200) throw new Error(`${row.label}: this server answered HTTP ${answer.status}`);
      const m = measureRow(server, row, { ...options, connections: 1 }, dir);
      const [all, loop] = [m.cpuPerRequest!, m.loopCpuPerRequest!];
      const kb = Buffer.byteLength(answer.body) / 1024;
      lines.push(
        `| ${row.label} | ${kb.toFixed(kb < 10 ? 1 : 0)} KB | ${m.rps.toFixed(0)} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${all.toFixed(2)} ms | ${loop.toFixed(2)} ms | ${(all - loop).toFixed(2)} ms |`,
      );
    }
  } finally {
    await stopServer(server.child);
  }
  return lines;
}

function rowsOf(officer: string, options: Options): Row[] {
  const soap: Row[] = [
    soapRow('1.1', SYNC, 'HelloWorld', {}),
    soapRow('1.1', MAIN, 'getPCNList', { SalesOfficer: officer }),
    soapRow('1.2', SYNC, 'HelloWorld', {}),
    soapRow('1.2', MAIN, 'getPCNList', { SalesOfficer: officer }),
  ];
  return [...soap, ...httpRows(officer)].filter(
    (row) => options.rows.has(row.group) && (options.match === undefined || row.label.includes(options.match)),
  );
}

// ---- the peers (this same file, started with --peer <kind>) ----------------------------------------

/** wsdl/<name>.wsdl as the server serves it: the namespace filled in, the address this peer's. */
function wsdlText(name: string, port: number): string {
  const template = fs.readFileSync(path.join(__dirname, '..', '..', 'wsdl', `${name}.wsdl`), 'utf8');
  return template
    .split('{{namespace}}')
    .join(NS)
    .split('{{address}}')
    .join(`http://127.0.0.1:${port}/API/${name}.asmx`);
}

/** Every operation of every port of the WSDL answers the empty response; HelloWorld "Hello World". */
function emptyServices(
  name: string,
  wsdl: string,
): Record<string, Record<string, Record<string, () => Record<string, string>>>> {
  const operations = [...new Set([...wsdl.matchAll(/<wsdl:operation name="([^"]+)"/g)].map((m) => m[1]))];
  const methods: Record<string, () => Record<string, string>> = {};
  for (const op of operations)
    methods[op] = op === 'HelloWorld' ? () => ({ HelloWorldResult: 'Hello World' }) : () => ({});
  const service = /<wsdl:service name="[^"]+">([\s\S]*?)<\/wsdl:service>/.exec(wsdl)?.[1] ?? '';
  const ports: Record<string, Record<string, () => Record<string, string>>> = {};
  for (const m of service.matchAll(/<wsdl:port name="([^"]+)"/g)) ports[m[1]] = methods;
  return { [name]: ports };
}

function soapPeer(port: number): void {
  const server = http.createServer();
  for (const name of ['MobileAppWebService', 'SyncCustomers']) {
    const wsdl = wsdlText(name, port);
    soap.listen(server, `/API/${name}.asmx`, emptyServices(name, wsdl), wsdl);
  }
  server.listen(port, '127.0.0.1');
}

function expressPeer(port: number, recordedFile: string): void {
  const recorded = JSON.parse(fs.readFileSync(recordedFile, 'utf8')) as Recorded[];
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  for (const r of recorded) {
    const body = Buffer.from(r.body, 'utf8');
    const answer = (_req: Request, res: Response) => void res.set('Content-Type', r.contentType).send(body);
    if (r.method === 'GET') app.get(r.path, answer);
    else app.post(r.path, express.urlencoded({ extended: false }), answer);
  }
  app.listen(port, '127.0.0.1');
}

/** Node's own HTTP server and nothing else: the recorded answer of each HTTP row's path, else a fixed SOAP reply. */
async function rawPeer(port: number, recordedFile?: string): Promise<void> {
  const reply = Buffer.from(
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPE['1.1']}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
      `<soap:Body><HelloWorldResponse xmlns="${NS}"><HelloWorldResult>Hello World</HelloWorldResult></HelloWorldResponse></soap:Body></soap:Envelope>`,
  );
  const answers = new Map<string, { contentType: string; body: Buffer }>();
  const recorded = recordedFile === undefined ? [] : (JSON.parse(fs.readFileSync(recordedFile, 'utf8')) as Recorded[]);
  for (const r of recorded)
    answers.set(`${r.method} ${r.path}`, { contentType: r.contentType, body: Buffer.from(r.body, 'utf8') });
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const found = answers.get(`${req.method} ${(req.url ?? '').split('?')[0]}`) ?? {
        contentType: SOAP_TYPE['1.1'],
        body: reply,
      };
      res.writeHead(200, { 'Content-Type': found.contentType, 'Content-Length': found.body.length });
      res.end(found.body);
    });
  };
  // With OTEL_* set (the tracing rows), this server's own span code around the bare answer: the spans'
  // cost on a server that does nothing else. Every request is taken as a getPCNList call.
  const tracing = await startTracing();
  const traced: http.RequestListener = (req, res) => {
    const annotated = Object.assign(res, {
      locals: { asmx: { binding: req.method === 'GET' ? 'httpget' : 'soap11' } },
    });
    void traceOperation(annotated, { name: 'MobileAppWebService', contract: 'legacy' }, 'getPCNList', () =>
      Promise.resolve(answer(req, annotated)),
    );
  };
  http.createServer(tracing === undefined ? answer : traceRequests(traced, () => false)).listen(port, '127.0.0.1');
}

/** An OTLP receiver that takes every export and drops it: the collector of the tracing rows. */
function otlpSink(port: number): void {
  http
    .createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(200, { 'Content-Type': String(req.headers['content-type'] ?? 'application/x-protobuf') }).end(),
      );
    })
    .listen(port, '127.0.0.1');
}

// ---- driving ----------------------------------------------------------------------------------------

function request(
  port: number,
  row: Pick<Row, 'method' | 'target' | 'headers' | 'body'>,
): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: row.method, path: row.target, headers: row.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(row.body);
  });
}

function luaScript(row: Row, dir: string): string {
  const file = path.join(dir, `${row.label.replace(/[^A-Za-z0-9]+/g, '-')}.lua`);
  const lines = [`wrk.method = "${row.method}"`];
  for (const [name, value] of Object.entries(row.headers)) lines.push(`wrk.headers["${name}"] = [==[${value}]==]`);
  if (row.body !== undefined) lines.push(`wrk.body = [==[${row.body}]==]`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function wrk(port: number, row: Row, options: Options, dir: string): Measure {
  const measure = runWrk([
    '-t1',
    `-c${options.connections}`,
    `-d${options.duration}s`,
    '-s',
    luaScript(row, dir),
    `http://127.0.0.1:${port}${row.target}`,
  ]);
  // A server that answers nothing is a failed run, not a row of zeros.
  if (!(measure.rps > 0)) throw new Error(`${row.label}: no answers in ${options.duration} s`);
  return measure;
}

/** A server started for measuring, answering on `port` (measureRow runs a row against it). */
interface Measured {
  label: string;
  port: number;
  child: ChildProcess;
  output?: string;
}

async function startMeasured(
  label: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  readyPath: string,
  output?: string,
): Promise<Measured> {
  const child = spawnPinned(command, env, output);
  await waitUntilAnswers(port, readyPath, child, (status) => status > 0 && status < 500);
  return { label, port, child, output };
}

/**
 * One row against one server: a short warm-up (unless `warm` is false: a later round, right after the
 * one before), then the measured run, with the server's CPU time (its event loop's apart) and
 * collections meanwhile.
 */
function measureRow(server: Measured, row: Row, options: Options, dir: string, warm = true): Measure {
  const { port, child, output } = server;
  const pid = child.pid!;
  if (warm) wrk(port, row, { ...options, duration: Math.min(2, options.duration) }, dir);
  const from = output === undefined ? 0 : fs.statSync(output).size;
  const [cpuBefore, loopBefore] = [procCpuMs(pid), procCpuMs(pid, pid)];
  const measure = wrk(port, row, options, dir);
  measure.cpuPerRequest = (procCpuMs(pid) - cpuBefore) / measure.requests;
  measure.loopCpuPerRequest = (procCpuMs(pid, pid) - loopBefore) / measure.requests;
  if (output !== undefined) measure.gc = collectionsOf(readFrom(output, from));
  process.stderr.write(
    `${server.label.padEnd(14)} ${row.label.padEnd(36)} ${measure.rps.toFixed(0).padStart(8)} req/s  p50 ${fmt(measure.p50)}  p99 ${fmt(measure.p99)}${measure.errors ? `  errors ${measure.errors}` : ''}\n`,
  );
  return measure;
}

/** The median of the rounds' values (nearest rank: the middle one of an odd number of rounds). */
function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The rounds of one row as one measure: the median of each figure (the rate, p50 and p99 each on its
 * own), CPU per request over all of them, every round's collections, and each round's p99 / p50 and rate.
 */
function medianOf(rounds: readonly Measure[]): Measure {
  const sum = (pick: (m: Measure) => number) => rounds.reduce((total, m) => total + pick(m), 0);
  const requests = sum((m) => m.requests);
  const measure: Measure = {
    rps: median(rounds.map((m) => m.rps)),
    p50: median(rounds.map((m) => m.p50)),
    p99: median(rounds.map((m) => m.p99)),
    errors: sum((m) => m.errors),
    requests,
    tailRatios: rounds.map((m) => m.p99 / m.p50),
    roundRates: rounds.map((m) => m.rps),
  };
  if (rounds.every((m) => m.cpuPerRequest !== undefined)) {
    measure.cpuPerRequest = sum((m) => m.cpuPerRequest! * m.requests) / requests;
    measure.loopCpuPerRequest = sum((m) => m.loopCpuPerRequest! * m.requests) / requests;
  }
  if (rounds.every((m) => m.gc !== undefined)) {
    measure.gc = {
      scavenges: rounds.flatMap((m) => m.gc!.scavenges),
      fullCollections: rounds.flatMap((m) => m.gc!.fullCollections),
    };
  }
  return measure;
}

/** A row's rounds against one server: the first warmed up, each later one right after the one before. */
function measureRounds(server: Measured, row: Row, options: Options, dir: string): Measure {
  return medianOf(
    Array.from({ length: options.rounds }, (_, round) => measureRow(server, row, options, dir, round === 0)),
  );
}

/** Every row against one server started for them alone, in rounds. */
async function measureServer(
  label: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  rows: Row[],
  options: Options,
  dir: string,
  output?: string,
): Promise<Map<string, Measure>> {
  const results = new Map<string, Measure>();
  if (rows.length === 0) return results;
  const server = await startMeasured(
    label,
    command,
    env,
    port,
    rows[0].group === 'soap' ? `${rows[0].target}?wsdl` : '/',
    output,
  );
  try {
    for (const row of rows) results.set(row.label, measureRounds(server, row, options, dir));
  } finally {
    await stopServer(server.child);
  }
  return results;
}

/**
 * This server and its peers side by side, each pinned to core 1 and idle but for the one measured:
 * each row runs against this server and right after against its peer, so that both see the machine at
 * nearly the same moment (the speed of these shared machines drifts within minutes). `record` runs
 * once this server answers, before the Express peer (which answers what it recorded) starts.
 */
async function sideBySide(
  rows: Row[],
  serverCommand: string[],
  serverEnv: NodeJS.ProcessEnv,
  record: () => Promise<void>,
  recordedFile: string,
  output: string,
  options: Options,
  dir: string,
): Promise<{ ours: Map<string, Measure>; peers: Map<string, Measure>; raws: Map<string, Measure> }> {
  const ours = new Map<string, Measure>();
  const peers = new Map<string, Measure>();
  const raws = new Map<string, Measure>();
  if (rows.length === 0) return { ours, peers, raws };
  const self = __filename;
  const started: Measured[] = [];
  const start = async (...args: Parameters<typeof startMeasured>) => {
    const server = await startMeasured(...args);
    started.push(server);
    return server;
  };
  /** One of this script's peers (`--peer kind port ...rest`), on this node. */
  const startPeer = (label: string, kind: string, port: number, readyPath: string, ...rest: string[]) =>
    start(label, nodeCommand([self, '--peer', kind, String(port), ...rest]), process.env, port, readyPath);
  try {
    const server = await start('this server', serverCommand, serverEnv, options.port, '/', output);
    await record();
    const soapPort = options.port + 1;
    const expressPort = options.port + 2;
    const soapPeer = rows.some((r) => r.group === 'soap')
      ? await startPeer('soap.listen', 'soap', soapPort, `${SYNC}?wsdl`)
      : undefined;
    const expressPeer = rows.some((r) => r.group === 'http')
      ? await startPeer('express', 'express', expressPort, '/', recordedFile)
      : undefined;
    const rawPort = options.port + 8;
    const rawPeer = rows.some((r) => r.group === 'http')
      ? await startPeer('raw node:http', 'raw', rawPort, '/', recordedFile)
      : undefined;
    await settle("the servers'");
    for (const row of rows) {
      const peer = row.group === 'soap' ? soapPeer! : expressPeer!;
      const [mine, theirs, raw]: Measure[][] = [[], [], []];
      // Round by round, this server and then its peer: each pair sees the machine at nearly the same moment.
      for (let round = 0; round < options.rounds; round++) {
        mine.push(measureRow(server, row, options, dir, round === 0));
        theirs.push(measureRow(peer, row, options, dir, round === 0));
        // An HTTP row's ceiling: node:http alone answering the same bytes, which no server on it can pass.
        if (row.group === 'http') raw.push(measureRow(rawPeer!, row, options, dir, round === 0));
      }
      ours.set(row.label, medianOf(mine));
      peers.set(row.label, medianOf(theirs));
      if (raw.length > 0) raws.set(row.label, medianOf(raw));
    }
  } finally {
    for (const server of started) await stopServer(server.child);
  }
  return { ours, peers, raws };
}

/** What `dir`'s npm start runs once built, run in `dir`: each build is started as its own users start it. */
function startCommand(dir: string): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return ['sh', '-c', `cd "$0" && exec ${scripts.start.split('&&').at(-1)!.trim()}`, dir];
}

/**
 * This build and the peer build (`options.peerBuild`) side by side, each pinned to core 1 and idle but
 * for the one measured, round by round with the order swapped each round, so that neither always runs
 * second. Per row: each build's median rate and CPU per request, and this build's rate over the peer's
 * (after / before, when the peer is the build before a change), the median and each round's.
 */
async function compareBuilds(
  rows: Row[],
  serverEnv: NodeJS.ProcessEnv,
  options: Options,
  dir: string,
): Promise<string[]> {
  const lines = [
    '| request | peer build req/s | this build req/s | CPU per request (this / peer) | this / peer, median | each round |',
    '|---|---|---|---|---|---|',
  ];
  const started: Measured[] = [];
  try {
    for (const [label, build, port] of [
      ['this build', ROOT, options.port],
      ['peer build', options.peerBuild!, options.port + 1],
    ] as const) {
      started.push(await startMeasured(label, startCommand(build), { ...serverEnv, PORT: String(port) }, port, '/'));
      for (const row of rows) {
        const { status } = await request(port, row);
        if (status !== 200) throw new Error(`${row.label}: ${label} answered HTTP ${status}`);
      }
    }
    const [ours, theirs] = started;
    await settle("the builds'");
    for (const row of rows) {
      const runs = new Map<Measured, Measure[]>([
        [ours, []],
        [theirs, []],
      ]);
      for (let round = 0; round < options.rounds; round++)
        for (const server of round % 2 === 0 ? [theirs, ours] : [ours, theirs])
          runs.get(server)!.push(measureRow(server, row, options, dir, round === 0));
      const [a, b] = [ours, theirs].map((server) => medianOf(runs.get(server)!));
      const ratios = a.roundRates!.map((rate, round) => rate / b.roundRates![round]);
      lines.push(
        `| ${row.label} | ${b.rps.toFixed(0)} | ${a.rps.toFixed(0)} | ${a.cpuPerRequest!.toFixed(4)} / ${b.cpuPerRequest!.toFixed(4)} ms | ${median(ratios).toFixed(2)} | ${ratios.map((r) => r.toFixed(2)).join(' ')} |`,
      );
    }
  } finally {
    for (const server of started) await stopServer(server.child);
  }
  return lines;
}

/** The OpenTelemetry settings of the tracing rows' three servers, all exporting to the sink. */
const TRACING = [
  { label: 'tracing off', env: {} },
  {
    label: '1 in 10 sampled',
    env: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
  },
  { label: 'every request sampled', env: { OTEL_TRACES_SAMPLER: 'parentbased_always_on' } },
];

/**
 * What tracing costs: each row against this server with tracing off, one request in ten sampled and
 * every request sampled, and against raw node:http answering the same bytes with the same three
 * settings (this server's span code around the bare answer: what the spans cost a server that does
 * nothing else), round by round, each server on core 1 and idle but for the one measured.
 */
async function measureTracing(
  rows: Row[],
  serverCommand: string[],
  serverEnv: NodeJS.ProcessEnv,
  options: Options,
  dir: string,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const sinkPort = options.port + 9;
  const started: Measured[] = [];
  const lines = [
    `| request | ${TRACING.map((t) => `${t.label} req/s | p50 | p99`).join(' | ')} | 1 in 10 / off | every / off | CPU per request (off, 1 in 10, every) | raw node:http with the spans: CPU per request |`,
    `|---|${TRACING.map(() => '---|---|---').join('|')}|---|---|---|---|`,
  ];
  const floors: string[] = [];
  try {
    const sink = spawnPinned(
      nodeCommand([__filename, '--peer', 'otlp', String(sinkPort)]),
      process.env,
      undefined,
      '0',
    );
    started.push({ label: 'otlp sink', port: sinkPort, child: sink });
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}` };
    const servers: Measured[] = [];
    const raws: Measured[] = [];
    const recordedFile = path.join(dir, 'traced-recorded.json');
    for (const [i, tracing] of TRACING.entries()) {
      const port = options.port + 3 + i;
      const env = { ...serverEnv, PORT: String(port), ...(i === 0 ? {} : { ...endpoint, ...tracing.env }) };
      const server = await startMeasured(tracing.label, serverCommand, env, port, '/');
      started.push(server);
      servers.push(server);
      if (i === 0)
        fs.writeFileSync(
          recordedFile,
          JSON.stringify(
            await Promise.all(
              rows.map(async (row) => ({
                method: row.method,
                path: row.target.split('?')[0],
                ...(await request(port, row)),
              })),
            ),
          ),
        );
    }
    for (const [i, tracing] of TRACING.entries()) {
      const port = options.port + 10 + i;
      const env = { ...process.env, ...(i === 0 ? {} : { ...endpoint, ...tracing.env }) };
      const raw = await startMeasured(
        `raw, ${tracing.label}`,
        nodeCommand([__filename, '--peer', 'raw', String(port), recordedFile]),
        env,
        port,
        '/',
      );
      started.push(raw);
      raws.push(raw);
    }
    await settle("the traced servers'");
    for (const row of rows) {
      const rounds: Measure[][] = servers.map(() => []);
      const rawRounds: Measure[][] = raws.map(() => []);
      for (let round = 0; round < options.rounds; round++) {
        servers.forEach((server, i) => rounds[i].push(measureRow(server, row, options, dir, round === 0)));
        raws.forEach((raw, i) => rawRounds[i].push(measureRow(raw, row, options, dir, round === 0)));
      }
      const [off, tenth, every] = rounds.map(medianOf);
      const [rawOff, rawTenth, rawEvery] = rawRounds.map(medianOf);
      const ratio = (m: Measure) => median(m.roundRates!.map((rate, round) => rate / off.roundRates![round]));
      const cells = [off, tenth, every].map(
        (m) => `${m.rps.toFixed(0)}${m.errors ? ` (${m.errors} errors)` : ''} | ${fmt(m.p50)} | ${fmt(m.p99)}`,
      );
      const cpu = (ms: Measure[]) => ms.map((m) => m.cpuPerRequest!.toFixed(4)).join(' / ');
      lines.push(
        `| ${row.label} | ${cells.join(' | ')} | ${ratio(tenth).toFixed(2)}x | ${ratio(every).toFixed(2)}x | ${cpu([off, tenth, every])} ms | ${cpu([rawOff, rawTenth, rawEvery])} ms |`,
      );
      const added = (traced: Measure, bare: Measure) => traced.cpuPerRequest! - bare.cpuPerRequest!;
      const share = (ms: number) =>
        `${ms.toFixed(4)} ms (${((ms / off.cpuPerRequest!) * 100).toFixed(0)}% of this server's request with tracing off)`;
      floors.push(
        `${row.label}: this server ${share(added(tenth, off))}; raw node:http with the spans ${share(added(rawTenth, rawOff))}`,
      );
    }
    lines.push('', 'CPU the spans add per request at 1 in 10:', ...floors.map((f) => `- ${f}`));
  } finally {
    for (const server of started) await stopServer(server.child);
  }
  return lines;
}

/** The text of `file` from byte `from` on. */
function readFrom(file: string, from: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(fs.fstatSync(fd).size - from);
    fs.readSync(fd, bytes, 0, bytes.length, from);
    return bytes.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function fmt(ms: number): string {
  return Number.isNaN(ms) ? '?' : ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--peer') {
    const port = Number(argv[2]);
    if (argv[1] === 'soap') return soapPeer(port);
    if (argv[1] === 'express') return expressPeer(port, argv[3]);
    if (argv[1] === 'raw') return rawPeer(port, argv[3]);
    if (argv[1] === 'otlp') return otlpSink(port);
    throw new Error(`unknown peer ${argv[1]}`);
  }
  const options = parseOptions(argv);
  const codes = await benchCodes(options.database);
  const rows = rowsOf(codes.officer, options);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hotpath-'));
  const self = __filename;
  const main = path.join(__dirname, '..', 'src', 'main.js');

  const serverEnv = {
    ...process.env,
    DATABASE_URL: options.database,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED_DEMO_DATA: 'false',
    SHUTDOWN_DRAIN_MS: '0',
  };
  const serverCommand = [
    SERVE,
    '--trace-gc',
    ...(options.profile ? ['--cpu-prof', '--cpu-prof-dir', options.profile] : []),
    main,
  ];
  if (options.peerBuild !== undefined) {
    // Each build runs in its own directory: a file path in the URL must not depend on it.
    const database = options.database.replace(
      /^sqlite:(?!:memory:)(.*)$/,
      (_, file: string) => `sqlite:${path.resolve(file)}`,
    );
    const lines = await compareBuilds(rows, { ...serverEnv, DATABASE_URL: database }, options, dir);
    process.stdout.write(
      `${options.database}, wrk -t1 -c${options.connections} -d${options.duration}s, ${options.rounds} rounds, this build ${ROOT} against ${options.peerBuild}${PINNED ? ', servers on core 1, wrk on core 0' : ' (taskset missing: not pinned)'}\n${lines.join('\n')}\n`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  const output = path.join(dir, 'server.out');
  const recordedFile = path.join(dir, 'recorded.json');
  const record = async () => {
    const recorded: Recorded[] = [];
    for (const row of rows) {
      const res = await request(options.port, row);
      if (res.status !== 200) throw new Error(`${row.label}: this server answered HTTP ${res.status}`);
      if (row.group === 'http')
        recorded.push({
          method: row.method,
          path: row.target.split('?')[0],
          contentType: res.contentType,
          body: res.body,
        });
    }
    fs.writeFileSync(recordedFile, JSON.stringify(recorded));
  };
  const peerPort = options.port + 1;
  const { ours, peers, raws } = await sideBySide(
    rows,
    serverCommand,
    serverEnv,
    record,
    recordedFile,
    output,
    options,
    dir,
  );
  // The reads whose answers the answer cache keeps, measured again without it: what a first request after a write costs.
  const keptRows = rows.filter((r) => r.group === 'http' && r.label.includes('getPCNList'));
  const uncached = await measureServer(
    'cache off',
    serverCommand,
    { ...serverEnv, ANSWER_CACHE_MB: '0' },
    options.port,
    keptRows,
    options,
    dir,
    output,
  );
  const light = await measureLight(
    serverCommand.filter((a) => a !== '--trace-gc'),
    { ...serverEnv, ANSWER_CACHE_MB: '0' },
    options.port,
    lightRows(codes, options),
    options,
    dir,
  );
  const tracedRows = options.rows.has('tracing')
    ? [soapRow('1.1', MAIN, 'getPCNList', { SalesOfficer: codes.officer }), httpRows(codes.officer)[2]].filter(
        (row) => options.match === undefined || row.label.includes(options.match),
      )
    : [];
  const tracing = await measureTracing(
    tracedRows,
    serverCommand.filter((a) => a !== '--trace-gc'),
    serverEnv,
    options,
    dir,
  );
  const rawRow: Row = { ...soapRow('1.1', SYNC, 'HelloWorld', {}), label: 'raw node:http, fixed SOAP reply' };
  const rawResults = await measureServer(
    'raw node:http',
    nodeCommand([self, '--peer', 'raw', String(peerPort)]),
    process.env,
    peerPort,
    [rawRow],
    options,
    dir,
  );

  // The CPU ratio is the rate ratio the servers would reach if wrk, on one core, could always keep up with both.
  const header = `| request | this server req/s | p50 | p99 | peer | peer req/s | p50 | p99 | ratio | CPU per request (this / peer) | CPU ratio |`;
  const lines = [header, '|---|---|---|---|---|---|---|---|---|---|---|'];
  for (const row of rows) {
    const a = ours.get(row.label)!;
    const peerName =
      row.group === 'soap'
        ? 'bare soap.listen'
        : row.method === 'GET'
          ? 'Express 5 route'
          : 'Express 5 route, urlencoded';
    const b = peers.get(row.label)!;
    const line = (label: string, m: Measure, ratio: number) =>
      `| ${label} | ${m.rps.toFixed(0)}${m.errors ? ` (${m.errors} errors)` : ''} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${peerName} | ${b.rps.toFixed(0)} | ${fmt(b.p50)} | ${fmt(b.p99)} | ${ratio.toFixed(2)}x | ${m.cpuPerRequest!.toFixed(3)} / ${b.cpuPerRequest!.toFixed(3)} ms | ${(b.cpuPerRequest! / m.cpuPerRequest!).toFixed(2)}x |`;
    // Measured round by round beside its peer: the median of the rounds' ratios, each taken at nearly one moment.
    lines.push(line(row.label, a, median(a.roundRates!.map((rate, round) => rate / b.roundRates![round]))));
    const ceiling = raws.get(row.label);
    if (ceiling)
      lines.push(
        line(
          `${row.label}: raw node:http, the same bytes`,
          ceiling,
          median(ceiling.roundRates!.map((rate, round) => rate / b.roundRates![round])),
        ),
      );
    const cold = uncached.get(row.label);
    // Measured later, on a server of its own: the ratio of the medians.
    if (cold) lines.push(line(`${row.label}, ANSWER_CACHE_MB=0`, cold, cold.rps / b.rps));
  }
  const raw = rawResults.get(rawRow.label)!;
  lines.push(
    `| raw node:http, fixed SOAP reply | | | | | ${raw.rps.toFixed(0)} | ${fmt(raw.p50)} | ${fmt(raw.p99)} | | ${raw.cpuPerRequest!.toFixed(3)} ms | |`,
  );
  process.stdout.write(
    `${options.database}, wrk -t1 -c${options.connections} -d${options.duration}s, medians of ${options.rounds} rounds${PINNED ? ', servers on core 1, wrk on core 0' : ' (taskset missing: not pinned)'}\n`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  // What the machine itself does to a tail: a server that does nothing but answer, measured the same way.
  process.stdout.write(
    `raw node:http p99 / p50 of each round: ${raw.tailRatios!.map((r) => `${r.toFixed(1)}x`).join(' ')}\n`,
  );
  const gcLines = [
    '| this server, while measured (every round) | p99 / p50 of each round | CPU per request | scavenges | mean | max | full collections | max |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    gcLines.push(gcLine(row.label, ours.get(row.label)!));
    const cold = uncached.get(row.label);
    if (cold) gcLines.push(gcLine(`${row.label}, ANSWER_CACHE_MB=0`, cold));
  }
  process.stdout.write(`\n${gcLines.join('\n')}\n`);
  if (tracing.length > 0)
    process.stdout.write(
      `\nOpenTelemetry traces over OTLP (http/protobuf), medians of ${options.rounds} rounds, the ratios round by round\n${tracing.join('\n')}\n`,
    );
  if (light.length > 0)
    process.stdout.write(
      `\nwrk -t1 -c1 -d${options.duration}s, one run each, ANSWER_CACHE_MB=0 (every request runs its queries)\n${light.join('\n')}\n`,
    );
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-hotpath: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
