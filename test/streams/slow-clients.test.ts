/**
 * Clients that do not read their answers (docs/operations.md, "Slow clients"): they hold no database
 * connection, snapshot or reader thread, because a streamed answer is read as fast as the database
 * gives it and waits for its client on disk; every other client is served meanwhile. Also the send
 * timeout, the ceiling on connections, each address's share of streamed answers and the spool's disk
 * budget, and clients that leave before their answer begins. The real server (src/server.ts) on a
 * real port, raw sockets, both engines.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { storePassword } from '../../src/auth/credential-store';
import { hashPassword } from '../../src/auth/password-hash';
import { loadSettings } from '../../src/config';
import { openEngine, type EngineKind } from '../../src/db/engine';
import { migrate } from '../../src/db/migrate';
import { startServer, type RunningServer } from '../../src/server';
import { captureLog, type LogCapture } from '../ops/ops-support';
import { emptyEngine, ENGINES } from '../support/engines';
import { insertListFixture } from './list-fixture';
import { getRaw } from './stream-support';

/** Enough receipts that one answer (several MB) fills what the kernel buffers for a socket that does not read. */
const RECEIPTS = 40_000;
const MAIN = '/API/MobileAppWebService.asmx';
const LARGE_LIST = `${MAIN}/getCollectionStatements`;
const V2_LARGE_LIST = '/API/v2/MobileAppWebService.asmx/getCollectionStatements';

interface Database {
  url: string;
  drop(): Promise<void>;
}

/** A database with the list fixture, on a file (SQLite) or in a schema of its own (PostgreSQL), for servers to open by URL. */
async function listDatabase(kind: EngineKind): Promise<Database> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mobileapp-slow-'));
    const url = `sqlite:${path.join(dir, 'test.db')}`;
    const engine = openEngine(url);
    try {
      await migrate(engine);
      await insertListFixture(engine.db, { receipts: RECEIPTS, cheques: 10, activities: 10, complaints: 10 });
    } finally {
      await engine.close();
    }
    return { url, drop: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })) };
  }
  const engine = emptyEngine('postgres');
  try {
    await migrate(engine);
    await insertListFixture(engine.db, { receipts: RECEIPTS, cheques: 10, activities: 10, complaints: 10 });
  } finally {
    await engine.close();
  }
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.searchParams.set('schema', engine.schema!);
  return { url: url.toString(), drop: () => Promise.resolve() };
}

async function serve(
  database: Database,
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; port: number; spoolDir: string; log: LogCapture }> {
  const spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mobileapp-spool-'));
  const settings = loadSettings({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    ANSWER_CACHE_MB: '0',
    SPOOL_DIR: spoolDir,
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  });
  const log = captureLog();
  const server = await startServer(settings, { seedEmbedded: false, logDestination: log.destination });
  return { server, port: Number(new URL(server.address).port), spoolDir, log };
}

/** A client that sends `path` and never reads a byte of the answer, from `localAddress` (any 127.x.y.z is this machine). */
function silentClient(
  port: number,
  requestPath: string,
  localAddress = '127.0.0.1',
  headers: Record<string, string> = {},
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.pause();
      socket.write(`GET ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headerLines(headers)}\r\n`, () =>
        resolve(socket),
      );
    });
    socket.on('error', reject);
  });
}

async function metric(port: number, name: string, headers: Record<string, string> = {}): Promise<number> {
  const text = (await getRaw(port, '/metrics', headers)).body.toString('utf8');
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 50 ms until it holds; fails after `withinMs`. */
async function until(check: () => Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`${what}: not within ${withinMs} ms`);
    await pause(50);
  }
}

/**
 * Other clients' reads while the silent ones hold their connections: the short ones and /ready each
 * answered 200 within 2 s; a whole list of their own too, in its turn (its time is the database's and
 * the event loop's work, shared with the silent clients' lists while those are read: bench-slow-clients
 * measures it on a server of its own).
 */
async function othersAreServed(port: number, rounds: number): Promise<void> {
  const timed = async (path: string) => {
    const started = Date.now();
    const answer = await getRaw(port, path);
    return { ...answer, ms: Date.now() - started };
  };
  for (let round = 0; round < rounds; round++) {
    const [small, short, large, ready] = await Promise.all([
      timed(`${MAIN}/getCollectionStatements?FromDate=2026-01-01&ToDate=2026-01-01`),
      timed(`${MAIN}/getPCNList`),
      timed(LARGE_LIST),
      timed('/ready'),
    ]);
    expect([small.status, short.status, large.status, ready.status]).toEqual([200, 200, 200, 200]);
    expect(Math.max(small.ms, short.ms, ready.ms)).toBeLessThan(2000);
    expect(JSON.parse(large.body.toString('utf8')).Count).toBe(RECEIPTS);
    await pause(500);
  }
}

describe.each(ENGINES)('clients that never read their answers: %s', (kind: EngineKind) => {
  let database: Database;
  beforeAll(async () => {
    database = await listDatabase(kind);
  }, 120_000);
  afterAll(() => database.drop());

  it('3 silent connections from one address: every other read is answered within 2 s, /ready stays 200', async () => {
    const { server, port, spoolDir } = await serve(database);
    const silent: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) silent.push(await silentClient(port, LARGE_LIST));
      // Their answers were read whole from the database and wait on disk, in files unlinked once open.
      await until(async () => (await metric(port, 'asmx_spool_bytes')) > 0, 5000, 'answers spooled');
      await until(() => Promise.resolve(fs.readdirSync(spoolDir).length === 0), 1000, 'files unlinked');
      // Longer than DB_ACQUIRE_TIMEOUT_MS: a held slot would have failed a read by now.
      await othersAreServed(port, 4);
    } finally {
      for (const socket of silent) socket.destroy();
      await server.stop();
    }
  });

  it('48 silent connections from 16 addresses: every other read is answered within 2 s, /ready stays 200', async () => {
    const { server, port } = await serve(database);
    const silent: net.Socket[] = [];
    try {
      for (let i = 0; i < 48; i++)
        silent.push(await silentClient(port, i % 2 === 0 ? LARGE_LIST : V2_LARGE_LIST, `127.0.0.${2 + (i % 16)}`));
      await othersAreServed(port, 4);
    } finally {
      for (const socket of silent) socket.destroy();
      await server.stop();
    }
  }, 60_000);

  it('a slow reader gets the same bytes as a fast one, plain and gzip, after waiting on disk', async () => {
    const { server, port } = await serve(database);
    try {
      for (const headers of [{}, { 'Accept-Encoding': 'gzip' }] as Record<string, string>[]) {
        const fast = await getRaw(port, LARGE_LIST, headers);
        const slow = await slowRead(port, LARGE_LIST, headers);
        expect(slow.status).toBe(200);
        expect(slow.body.equals(fast.body)).toBe(true);
      }
    } finally {
      await server.stop();
    }
  });

  it('keeps an answer for the answer cache once it is written whole, while its client has read none of it', async () => {
    // 64 MB: the cache keeps answers of up to 16 MB, this list among them.
    const { server, port } = await serve(database, { ANSWER_CACHE_MB: '64' });
    const hits = () => metric(port, 'asmx_answer_cache_lookups_total{result="hit"}');
    let silent: net.Socket | undefined;
    try {
      silent = await silentClient(port, LARGE_LIST);
      await until(async () => (await metric(port, 'asmx_spool_bytes')) > 0, 5000, 'the answer spooled');
      // Kept at once, so its gathered bytes are not held for as long as the client stays silent.
      await until(async () => (await metric(port, 'asmx_answer_cache_bytes')) > 0, 5000, 'the answer kept');
      const before = await hits();
      const again = await getRaw(port, LARGE_LIST);
      expect(JSON.parse(again.body.toString('utf8')).Count).toBe(RECEIPTS);
      expect(await hits()).toBe(before + 1);
    } finally {
      silent?.destroy();
      await server.stop();
    }
  });

  it('closes a connection that takes no bytes for SEND_TIMEOUT_MS, counts it, and gives its disk back', async () => {
    const { server, port } = await serve(database, { SEND_TIMEOUT_MS: '1000' });
    try {
      await expectSilentClientCut(port, 'send_timeout');
      // A client that reads slowly but steadily is not cut.
      const steady = await slowRead(port, LARGE_LIST, {}, 300);
      expect(steady.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('a client that leaves before its answer is admitted gives back its share, its disk and its file', async () => {
    const engine = openEngine(database.url);
    try {
      await storePassword(engine.db, 'ADM001', await hashPassword(PASSWORD), new Date().toISOString());
    } finally {
      await engine.close();
    }
    const { server, port, spoolDir, log } = await serve(database, { AUTH_MODE: 'basic', MAX_STREAMS_PER_ADDRESS: '1' });
    const victims = [
      { path: LARGE_LIST, address: '127.0.0.3' },
      { path: V2_LARGE_LIST, address: '127.0.0.4' },
    ];
    try {
      // Their password checks wait for libuv's pool: each client hangs up, and the server sees it,
      // before its answer is admitted and begun.
      const release = holdThreadPool();
      try {
        for (const victim of victims) (await silentClient(port, victim.path, victim.address, ADMIN)).destroy();
        await until(
          () => Promise.resolve(victims.every((victim) => log.lines.some((line) => line.path === victim.path))),
          5000,
          'hang-ups seen',
        );
      } finally {
        await release();
      }
      // A whole list read after the release: by its end the victims' answers have been admitted and begun.
      expect((await getFrom(port, LARGE_LIST, '127.0.0.9', ADMIN)).status).toBe(200);
      await until(
        async () => (await metric(port, 'asmx_spool_bytes', ADMIN)) === 0 && spoolFilesOpen(spoolDir) === 0,
        5000,
        'disk and files given back',
      );
      for (const victim of victims) expect((await getFrom(port, LARGE_LIST, victim.address, ADMIN)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('answers 429 in the binding form past MAX_STREAMS_PER_ADDRESS; another address is still served', async () => {
    const { server, port } = await serve(database, { MAX_STREAMS_PER_ADDRESS: '2' });
    const silent: net.Socket[] = [];
    try {
      silent.push(await silentClient(port, LARGE_LIST), await silentClient(port, V2_LARGE_LIST));
      await until(async () => (await metric(port, 'asmx_spool_bytes')) > 0, 5000, 'answers spooled');
      const refused = await getRaw(port, LARGE_LIST);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body.toString('utf8')).toBe('Too many requests; retry after 1 seconds.\r\n');
      const soap = await soapV2List(port);
      expect(soap.status).toBe(429);
      expect(soap.body.toString('utf8')).toContain(
        '<faultstring>Too many requests; retry after 1 seconds.</faultstring>',
      );
      // A short list is read whole by one statement, not streamed: it needs no share.
      expect((await getRaw(port, `${MAIN}/getPCNList`)).status).toBe(200);
      expect((await getFrom(port, LARGE_LIST, '127.0.0.9')).status).toBe(200);
    } finally {
      for (const socket of silent) socket.destroy();
    }
    try {
      // The share comes back as the silent clients leave.
      await until(async () => (await getRaw(port, LARGE_LIST)).status === 200, 5000, 'share given back');
    } finally {
      await server.stop();
    }
  });

  it('cuts an answer that would pass SPOOL_MAX_MB, and counts it; others are served', async () => {
    const { server, port } = await serve(database, { SPOOL_MAX_MB: '1' });
    try {
      await expectSilentClientCut(port, 'spool_full');
      expect((await getRaw(port, LARGE_LIST)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('the ceiling on open connections', () => {
  it('answers a connection past MAX_CONNECTIONS 503 and closes it, instead of dropping it; counts it', async () => {
    const settings = loadSettings({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      MAX_CONNECTIONS: '3',
      SHUTDOWN_DRAIN_MS: '0',
    });
    const server = await startServer(settings, { seedEmbedded: false, logDestination: captureLog().destination });
    const port = Number(new URL(server.address).port);
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) held.push(await openConnection(port));
      const refused = await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(refused).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(refused).toMatch(/\r\nRetry-After: 1\r\n/);
      expect(refused).toMatch(/\r\nConnection: close\r\n/);
      expect(refused.endsWith('\r\n\r\nServer too busy; retry after 1 seconds.\r\n')).toBe(true);
      // Served again once a connection closes; every refusal is counted (the server may see the close after a retry).
      held.pop()!.destroy();
      let refusals = 1;
      await until(
        async () => {
          const answer = await rawExchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
          if (answer.startsWith('HTTP/1.1 503 ')) refusals++;
          return answer.startsWith('HTTP/1.1 200 ');
        },
        2000,
        'served again',
      );
      expect(await metric(port, 'asmx_connections_refused_total')).toBe(refusals);
    } finally {
      for (const socket of held) socket.destroy();
      await server.stop();
    }
  });
});

/**
 * Reads the answer in small bites with pauses, as a phone on a poor network would, starting only once
 * the server has put part of it on disk when `spilled` says it must (a plain answer is larger than what
 * the kernel buffers; a compressed one may not be).
 */
function slowRead(
  port: number,
  requestPath: string,
  headers: Record<string, string>,
  pauseMs = 100,
): Promise<{ status: number; body: Buffer }> {
  const spills = Object.keys(headers).length === 0;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.pause();
      socket.write(
        `GET ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headerLines(headers)}\r\n`,
      );
      const bite = () => {
        if (socket.destroyed) return;
        socket.resume();
        setTimeout(() => {
          socket.pause();
          setTimeout(bite, pauseMs);
        }, 5);
      };
      const spilled = spills
        ? until(async () => (await metric(port, 'asmx_spool_bytes')) > 0, 10_000, 'part of the answer on disk')
        : pause(500);
      spilled.then(bite, reject);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const whole = Buffer.concat(chunks);
      const split = whole.indexOf('\r\n\r\n');
      const head = whole.subarray(0, split).toString('latin1');
      resolve({ status: Number(head.split(' ')[1]), body: dechunk(whole.subarray(split + 4), head) });
      socket.destroy();
    });
  });
}

/** A client that never reads its large list is cut for `reason`: counted once, its spool file gone, its socket closed. */
async function expectSilentClientCut(port: number, reason: 'send_timeout' | 'spool_full'): Promise<void> {
  const socket = await silentClient(port, LARGE_LIST);
  await until(
    async () => (await metric(port, `asmx_connections_closed_total{reason="${reason}"}`)) === 1,
    5000,
    `cut for ${reason}`,
  );
  expect(await metric(port, 'asmx_spool_bytes')).toBe(0);
  await closedOnceRead(socket);
}

/** A client that did not read sees its connection closed once it reads (a paused socket notices nothing). */
function closedOnceRead(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
    socket.resume();
  });
}

/** The body of a chunked answer without its framing (the answers of these lists are chunked). */
function dechunk(body: Buffer, head: string): Buffer {
  if (!/\r\ntransfer-encoding: chunked/i.test(head)) return body;
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function soapV2List(port: number): Promise<{ status: number; body: Buffer }> {
  const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getCollectionStatements xmlns="http://tempuri.org/v2/"></getCollectionStatements></soap:Body></soap:Envelope>`;
  return getRaw(
    port,
    '/API/v2/MobileAppWebService.asmx',
    { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '"http://tempuri.org/v2/getCollectionStatements"' },
    'POST',
    envelope,
  );
}

function getFrom(
  port: number,
  requestPath: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () =>
      socket.write(`GET ${requestPath} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headerLines(headers)}\r\n`),
    );
    let head = '';
    socket.on('data', (chunk: Buffer) => (head ||= chunk.toString('latin1')));
    socket.on('end', () => resolve({ status: Number(head.split(' ')[1]) }));
    socket.on('error', reject);
  });
}

function openConnection(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Sends `request` on a new connection and gives back everything the server sent before it closed. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const PASSWORD = 'slow-clients-password';
const ADMIN = { Authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/**
 * Occupies every thread of libuv's pool (UV_THREADPOOL_SIZE, 4 by default) with the opening of a FIFO,
 * which waits for a writer: what the server runs on the pool (scrypt) waits until the release.
 */
function holdThreadPool(): () => Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mobileapp-pool-'));
  const fifos = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE) || 4 }, (_, i) => path.join(dir, `${i}`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const readers = fifos.map((fifo) => fs.promises.open(fifo, 'r'));
  return async () => {
    const writers = fifos.map((fifo) => fs.openSync(fifo, 'w'));
    for (const reader of await Promise.all(readers)) await reader.close();
    for (const writer of writers) fs.closeSync(writer);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** The descriptors this process (the server's) has open on files of the spool. */
function spoolFilesOpen(spoolDir: string): number {
  return fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(spoolDir);
    } catch {
      return false;
    }
  }).length;
}
