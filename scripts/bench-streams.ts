/**
 * npm run build && node dist/scripts/bench-streams.js [--database URL] [--scale N] [--seconds S]
 *
 * Measures the streamed lists (issue 9's goals for lists) against the real server, started as a
 * child process pinned to core 1 (bench-server.ts) on a database seeded with demo data of --scale
 * when it is empty (default: sqlite:./data/bench-<scale>.db):
 *
 *   memory       the server's peak resident memory (VmHWM) while four unfiltered lists stream at once
 *                (measured first, so the peak is theirs)
 *   first byte   time to the first byte of each large list, unfiltered (median of 5)
 *   hang-up      the server's CPU time spent after a client hangs up 100 ms into a list
 *   /health      p50/p99 latency of /health, probed every 20 ms (from a process of its own) while two
 *                clients pull lists nonstop
 *
 * Linux only (it reads /proc/<pid>). It prints one line per figure; speed goals are judged on its
 * output, never in the test suite.
 */
import http from 'node:http';
import {
  flagValue,
  percentile,
  probeHealth,
  procCpuMs,
  procStatusMb,
  startServer,
  stopServer,
  withBenchData,
} from './bench-server';
import { redactedUrl } from '../src/config';

const MAIN = '/API/MobileAppWebService.asmx';
const LISTS = ['getCollectionStatements', 'ActivityReportAndComplaints', 'getPCNList'];

interface Options {
  databaseUrl: string;
  scale: number;
  seconds: number;
}

function parseOptions(argv: string[]): Options {
  const value = (flag: string) => flagValue(argv, flag);
  const scale = Number(value('--scale') ?? '1');
  return {
    scale,
    databaseUrl: value('--database') ?? `sqlite:./data/bench-${scale}.db`,
    seconds: Number(value('--seconds') ?? '10'),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A whole GET: status, bytes, time to the first byte and in all. */
function get(
  port: number,
  pathAndQuery: string,
): Promise<{ status: number; bytes: number; firstByteMs: number; totalMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = -1;
    let bytes = 0;
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, agent: false }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes, firstByteMs, totalMs: performance.now() - started }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Starts a GET and destroys the connection `afterMs` after the first byte. */
function hangUp(port: number, pathAndQuery: string, afterMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, agent: false }, (res) => {
      res.once('data', () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, afterMs),
      );
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    setTimeout(() => reject(new Error('no answer')), 30_000).unref();
  });
}

const median = (xs: number[]) => percentile(xs, 50);
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function firstBytes(port: number): Promise<void> {
  for (const list of LISTS) {
    const runs = [];
    for (let i = 0; i < 5; i++) runs.push(await get(port, `${MAIN}/${list}`));
    if (runs.some((r) => r.status !== 200)) throw new Error(`${list} answered ${runs.map((r) => r.status).join(', ')}`);
    const mb = (runs[0].bytes / 1048576).toFixed(1);
    console.log(
      `first byte   ${list.padEnd(28)} median ${fmt(median(runs.map((r) => r.firstByteMs)))}, whole ${mb} MB in ${fmt(median(runs.map((r) => r.totalMs)))}`,
    );
  }
}

async function memory(port: number, pid: number): Promise<void> {
  const before = procStatusMb(pid, 'VmRSS');
  const answers = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      get(port, `${MAIN}/${i % 2 === 0 ? 'getCollectionStatements' : 'ActivityReportAndComplaints'}`),
    ),
  );
  const mb = answers.reduce((sum, a) => sum + a.bytes, 0) / 1048576;
  console.log(
    `memory       four lists at once (${mb.toFixed(0)} MB in all): RSS before ${before.toFixed(0)} MB, peak (VmHWM) ${procStatusMb(pid, 'VmHWM').toFixed(0)} MB`,
  );
}

async function hangUpCost(port: number, pid: number): Promise<void> {
  const costs = [];
  for (let i = 0; i < 3; i++) {
    await sleep(300);
    const idle0 = procCpuMs(pid);
    await sleep(500);
    const idlePerMs = (procCpuMs(pid) - idle0) / 500;
    await hangUp(port, `${MAIN}/getCollectionStatements`, 100);
    const at = procCpuMs(pid);
    await sleep(1500);
    costs.push(Math.max(0, procCpuMs(pid) - at - idlePerMs * 1500));
  }
  console.log(
    `hang-up      CPU after the client left (100 ms into getCollectionStatements): median ${fmt(median(costs))} (${costs.map((c) => c.toFixed(0)).join(', ')} ms; clock ticks of 10 ms)`,
  );
}

async function healthUnderLoad(port: number, seconds: number): Promise<void> {
  const prober = probeHealth(port, 20);
  let running = true;
  const pullers = [0, 1].map(async (i) => {
    let lists = 0;
    while (running) {
      await get(port, `${MAIN}/${LISTS[i % LISTS.length]}`);
      lists++;
    }
    return lists;
  });
  await sleep(seconds * 1000);
  const probes = await prober.stop();
  running = false;
  const pulled = (await Promise.all(pullers)).reduce((a, b) => a + b, 0);
  console.log(
    `/health      while lists stream nonstop (${pulled} lists in ${seconds} s): p50 ${fmt(percentile(probes, 50))}, p99 ${fmt(percentile(probes, 99))}, max ${fmt(Math.max(...probes))} (${probes.length} probes)`,
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  await withBenchData(options.databaseUrl, options.scale, () => Promise.resolve());
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = await startServer(options.databaseUrl, port, { LOG_LEVEL: 'silent', WORKERS: '1' });
  try {
    console.log(`server pid ${server.pid} on ${redactedUrl(options.databaseUrl)}`);
    await get(port, `${MAIN}/getPCNList`);
    await memory(port, server.pid!);
    await firstBytes(port);
    await hangUpCost(port, server.pid!);
    await healthUnderLoad(port, options.seconds);
  } finally {
    await stopServer(server);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
