/**
 * npm run build && node dist/scripts/bench-slow-clients.js [--database URL] [--scale N] [--seconds S] [--silent 0,3,48]
 *
 * Clients that never read their answers, against the real server (a child process pinned to core 1,
 * bench-server.ts) on a database seeded with demo data of --scale when it is empty (default:
 * sqlite:./data/bench-<scale>.db). For each case, side by side in one run: no silent client; 3 silent
 * connections from one address; 48 from 16 addresses (127.0.0.2 to .17). Each silent connection asks
 * for a company-wide list (collection statements of three years, the PCN list, the activity report,
 * their v2 forms) and never reads a byte. Meanwhile, for --seconds, another client (127.0.0.1) reads
 * in turn a PCN's details, one day's collection statements, the whole list of collection statements
 * and /ready. Printed per case: each read's p50, p99 and worst latency (read whole), the worst time
 * to its first byte, and its statuses; the server's peak resident memory (VmHWM); and what waits on
 * disk at the end (asmx_spool_bytes).
 * --silent runs only the cases with those numbers of silent connections.
 *
 * Linux only (it reads /proc/<pid>). Figures go to docs/performance.md, never into the test suite.
 */
import http from 'node:http';
import net from 'node:net';
import { flagValue, percentile, procStatusMb, startServer, stopServer, withBenchData } from './bench-server';

const MAIN = '/API/MobileAppWebService.asmx';
const V2 = '/API/v2/MobileAppWebService.asmx';
const PORT = 18_091;

const SILENT_ASKS = [
  `${MAIN}/getCollectionStatements?FromDate=2024-01-01&ToDate=2026-12-31`,
  `${MAIN}/getPCNList`,
  `${MAIN}/ActivityReportAndComplaints`,
  `${V2}/getCollectionStatements?FromDate=2024-01-01&ToDate=2026-12-31`,
];

const READS: readonly (readonly [string, string])[] = [
  ['getPCNDetails', `${MAIN}/getPCNDetails?PCNNo=PCN0000001`],
  ['one day of statements', `${MAIN}/getCollectionStatements?FromDate=2025-06-02&ToDate=2025-06-02`],
  ['all statements', `${MAIN}/getCollectionStatements?FromDate=2024-01-01&ToDate=2026-12-31`],
  ['/ready', '/ready'],
];

const CASES: readonly { name: string; connections: number; addresses: number }[] = [
  { name: 'no silent client', connections: 0, addresses: 0 },
  { name: '3 silent, 1 address', connections: 3, addresses: 1 },
  { name: '48 silent, 16 addresses', connections: 48, addresses: 16 },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A GET read whole: its status, its time in ms and when its first byte came (a status 0 for a connection that failed). */
function timedGet(path: string): Promise<{ status: number; ms: number; firstMs: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let firstMs = NaN;
    const done = (status: number) => resolve({ status, ms: performance.now() - started, firstMs });
    const req = http.get({ host: '127.0.0.1', port: PORT, path, agent: false }, (res) => {
      res.once('data', () => (firstMs = performance.now() - started));
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', () => done(0));
    });
    req.on('error', () => done(0));
  });
}

function silentClient(path: string, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: PORT, host: '127.0.0.1', localAddress }, () => {
      socket.pause();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, () => resolve(socket));
    });
    socket.on('error', reject);
  });
}

async function spoolBytes(): Promise<number> {
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port: PORT, path: '/metrics', agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve(Number(/^asmx_spool_bytes (\d+)/m.exec(text)?.[1] ?? NaN)));
    });
  });
}

async function runCase(database: string, seconds: number, c: (typeof CASES)[number]): Promise<void> {
  const server = await startServer(database, PORT);
  const silent: net.Socket[] = [];
  try {
    for (let i = 0; i < c.connections; i++)
      silent.push(await silentClient(SILENT_ASKS[i % SILENT_ASKS.length], `127.0.0.${2 + (i % c.addresses)}`));
    const times = new Map<string, { ms: number[]; firstMs: number[]; statuses: Map<number, number> }>(
      READS.map(([name]) => [name, { ms: [], firstMs: [], statuses: new Map() }]),
    );
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      for (const [name, path] of READS) {
        const { status, ms, firstMs } = await timedGet(path);
        const seen = times.get(name)!;
        seen.ms.push(ms);
        seen.firstMs.push(firstMs);
        seen.statuses.set(status, (seen.statuses.get(status) ?? 0) + 1);
      }
    }
    const spooled = await spoolBytes();
    const peak = procStatusMb(server.pid!, 'VmHWM');
    process.stdout.write(
      `${c.name}: peak RSS ${peak.toFixed(0)} MB, on disk at the end ${(spooled / 1024 / 1024).toFixed(1)} MB\n`,
    );
    for (const [name, seen] of times) {
      const statuses = [...seen.statuses].map(([status, n]) => `${n}x${status}`).join(' ');
      process.stdout.write(
        `  ${name.padEnd(22)} p50 ${percentile(seen.ms, 50).toFixed(1)} ms  p99 ${percentile(seen.ms, 99).toFixed(1)} ms  worst ${Math.max(...seen.ms).toFixed(1)} ms  first byte worst ${Math.max(...seen.firstMs).toFixed(1)} ms  ${statuses}\n`,
      );
    }
  } finally {
    for (const socket of silent) socket.destroy();
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const scale = Number(flagValue(argv, '--scale') ?? '1');
  const database = flagValue(argv, '--database') ?? `sqlite:./data/bench-${scale}.db`;
  const seconds = Number(flagValue(argv, '--seconds') ?? '15');
  await withBenchData(database, scale, () => Promise.resolve());
  const silent = flagValue(argv, '--silent')?.split(',').map(Number);
  for (const c of CASES.filter((one) => silent === undefined || silent.includes(one.connections))) {
    await runCase(database, seconds, c);
    await sleep(500);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
