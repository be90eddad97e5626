/**
 * npm run build && node dist/scripts/bench-memory.js [--database URL]... [--runs N] [--set NAME=VALUE]... [--first-start]
 *
 * The server's peak resident memory (VmHWM) with the default settings while the aggregated reports and
 * the large lists run against it together: one client calls every report of the battery under each
 * filter mix (report-mixes.ts), twice with a warranty request written between, while four large lists
 * stream at once and then two clients pull lists nonstop until the reports are done. --runs servers per
 * database (default 3; 0 for none), each started afresh, pinned to core 1 (bench-server.ts); printed per run: the
 * peak and the largest values /metrics gave meanwhile (V8 heap, memory outside it, kept answers,
 * spool), then the median peak per database. Each --database (default sqlite:./data/bench-10.db) is
 * seeded with scale-10 demo data when empty. --set gives the servers a setting other than its default
 * (to see what a part costs, e.g. --set ANSWER_CACHE_MB=0).
 *
 * --first-start: also starts the server as `npm start` does on a fresh clone (an empty SQLite file,
 * SEED_DEMO_DATA=true) and prints its resident memory once it serves, and the same after a restart.
 *
 * Linux only (it reads /proc/<pid>). Figures go to docs/performance.md, never into the test suite.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { percentile, procStatusMb, startServer, stopServer } from './bench-server';
import { mixes, prepare, type Codes } from './report-mixes';
import { redactedUrl } from '../src/config';

const MAIN = '/API/MobileAppWebService.asmx';
const LISTS = ['getCollectionStatements', 'ActivityReportAndComplaints', 'getPCNList'];
const PORT = 18_093;

interface Options {
  databases: string[];
  runs: number;
  firstStart: boolean;
  settings: Record<string, string>;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { databases: [], runs: 3, firstStart: false, settings: {} };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--first-start') options.firstStart = true;
    else if (argv[i] === '--database' && argv[i + 1] !== undefined) options.databases.push(argv[++i]);
    else if (argv[i] === '--runs' && argv[i + 1] !== undefined) options.runs = Number(argv[++i]);
    else if (argv[i] === '--set' && argv[i + 1]?.includes('=')) {
      const [name, ...value] = argv[++i].split('=');
      options.settings[name] = value.join('=');
    } else throw new Error(`unknown option ${argv[i]}`);
  }
  if (options.databases.length === 0) options.databases.push('sqlite:./data/bench-10.db');
  return options;
}

/** A whole GET; rejects on a status other than 200. */
function get(target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: PORT, path: target, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          // Only the start is kept: the lists are tens of megabytes and this process is not the one measured.
          if (bytes < 4096) chunks.push(chunk);
          bytes += chunk.length;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`${target}: HTTP ${res.statusCode}`)),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let warranties = 0;

async function writeWarrantyRequest(codes: Codes): Promise<void> {
  warranties += 1;
  const id = `mem-${process.pid}-${warranties}`;
  const fields = {
    CustomerCode: codes.warranty.customer,
    SalesOfficer: codes.warranty.officer,
    ProductCode: codes.warranty.product,
    SerialNo: `SN-${id}`,
    Complaint: 'Motor hums but does not start',
    PurchaseDate: '15/01/2026',
    ClientRequestId: id,
  };
  const body = await get(`${MAIN}/CreateWarrantyRequest?${new URLSearchParams(fields).toString()}`);
  if (!body.startsWith('{"Success":true')) throw new Error(`CreateWarrantyRequest: ${body.slice(0, 300)}`);
}

/** The gauges of /metrics that say where memory is, in MB, by name. */
const GAUGES: Record<string, RegExp> = {
  heap: /^nodejs_heap_size_total_bytes (\S+)/m,
  external: /^nodejs_external_memory_bytes (\S+)/m,
  kept: /^asmx_answer_cache_bytes(?:\{[^}]*\})? (\S+)/m,
  spool: /^asmx_spool_bytes (\S+)/m,
};

/** Polls /metrics until stop(), keeping the largest value of each gauge. */
function sampleGauges(): { stop(): Promise<Record<string, number>> } {
  const largest: Record<string, number> = Object.fromEntries(Object.keys(GAUGES).map((name) => [name, 0]));
  let running = true;
  const loop = (async () => {
    while (running) {
      const text = await get('/metrics').catch(() => '');
      for (const [name, pattern] of Object.entries(GAUGES))
        largest[name] = Math.max(largest[name], Number(pattern.exec(text)?.[1] ?? 0) / 1048576);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return largest;
    },
  };
}

/** Every mix of every report, one call at a time: once, then again after a warranty request (the kept answer). */
async function reports(codes: Codes): Promise<number> {
  let calls = 0;
  for (const [op, list] of Object.entries(mixes(codes))) {
    for (const [, query] of list) {
      const target = `${MAIN}/${op}?${new URLSearchParams(query).toString()}`;
      await get(target);
      await writeWarrantyRequest(codes);
      await get(target);
      calls += 2;
    }
  }
  return calls;
}

/** Four large lists at once, then two clients pulling lists one after another until `done` settles. */
async function lists(done: Promise<unknown>): Promise<number> {
  let running = true;
  void done.finally(() => (running = false));
  await Promise.all([0, 1, 2, 3].map((i) => get(`${MAIN}/${LISTS[i % 2]}`)));
  let pulled = 4;
  await Promise.all(
    [0, 1].map(async (i) => {
      for (let n = i; running; n++, pulled++) await get(`${MAIN}/${LISTS[n % LISTS.length]}`);
    }),
  );
  return pulled;
}

async function run(database: string, codes: Codes, settings: Record<string, string>): Promise<number> {
  const server = await startServer(database, PORT, settings);
  const gauges = sampleGauges();
  try {
    const battery = reports(codes);
    const [calls, pulled] = await Promise.all([battery, lists(battery.catch(() => undefined))]);
    const largest = await gauges.stop();
    const peak = procStatusMb(server.pid!, 'VmHWM');
    const parts = Object.entries(largest)
      .map(([name, mb]) => `${name} ${mb.toFixed(0)}`)
      .join(', ');
    process.stdout.write(
      `  peak RSS ${peak.toFixed(0)} MB (${calls} report calls, ${pulled} lists; largest in MB: ${parts})\n`,
    );
    return peak;
  } finally {
    // On a failed request too: the sampler would keep this process alive.
    await gauges.stop();
    await stopServer(server);
  }
}

/** An empty SQLite file served as `npm start` serves it: seeded at the first start, then restarted. */
async function firstStart(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  const database = `sqlite:${path.join(dir, 'mobileapp.db')}`;
  try {
    for (const start of ['first start (seeds the demo data)', 'restart on the same database']) {
      const server = await startServer(database, PORT, { SEED_DEMO_DATA: 'true' });
      try {
        await get(`${MAIN}/getPCNList`);
        process.stdout.write(
          `${start}: RSS ${procStatusMb(server.pid!, 'VmRSS').toFixed(0)} MB serving, peak ${procStatusMb(server.pid!, 'VmHWM').toFixed(0)} MB\n`,
        );
      } finally {
        await stopServer(server);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const medians: string[] = [];
  for (const database of options.runs > 0 ? options.databases : []) {
    const codes = await prepare(database);
    const settings =
      Object.entries(options.settings)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ') || 'default settings';
    process.stdout.write(`${redactedUrl(database)}, ${settings}, ${options.runs} runs\n`);
    const peaks: number[] = [];
    for (let i = 0; i < options.runs; i++) peaks.push(await run(database, codes, options.settings));
    medians.push(
      `${redactedUrl(database)}: median peak RSS ${percentile(peaks, 50).toFixed(0)} MB (${peaks.map((p) => p.toFixed(0)).join(', ')})`,
    );
  }
  if (medians.length > 0) process.stdout.write(`${medians.join('\n')}\n`);
  if (options.firstStart) await firstStart();
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-memory: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
