/**
 * The report battery of docs/summaries.md: each aggregated report under a dozen filter mixes, against
 * the real server in its own process, one request at a time, printing p50/p99 per call, the server's
 * peak memory and the latency of /health polled every 10 ms meanwhile (from a process of its own). Twice: with the answer cache off,
 * so that every call runs its query, then with the default settings, where the first call of a mix runs
 * its query and the equal calls after it are answered from the cache while the app goes on writing:
 * a warranty request is created before each of them (not timed), as field officers do all day; it
 * writes tables no report reads, so the reports' answers stay kept. Not part of the test suite.
 *
 *   npm run build && node dist/scripts/bench-reports.js [--database URL] [--repeat N] [--port P] [--profile DIR]
 *
 * --database defaults to sqlite:./data/bench-10.db; an empty database is seeded with scale-10 demo data
 * first (about two minutes). The server is pinned to core 1 (taskset), this process to core 0, when
 * taskset is there. The codes the mixes use are read from the database itself. --profile writes a V8
 * CPU profile of each pass's server (node --cpu-prof) into DIR: its main thread's longest stretches
 * of work are what /health waits behind.
 */
import http from 'node:http';
import path from 'node:path';
import { percentile, probeHealth, procStatusMb, settle, startServer, stopServer } from './bench-server';
import { mixes, prepare, type Codes } from './report-mixes';

interface Options {
  database: string;
  repeat: number;
  port: number;
  profile?: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { database: 'sqlite:./data/bench-10.db', repeat: 15, port: 18091 };
  for (let i = 0; i < argv.length; i += 2) {
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]} needs a value`);
    if (argv[i] === '--database') options.database = value;
    else if (argv[i] === '--repeat') options.repeat = Number(value);
    else if (argv[i] === '--port') options.port = Number(value);
    else if (argv[i] === '--profile') options.profile = path.resolve(value);
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return options;
}

function get(port: number, target: string): Promise<{ status: number; bytes: number; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, bytes, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface Pass {
  /** Per mix: the times of the calls after the first, and the first call's. */
  calls: Map<string, { first: number; times: number[]; bytes: number }>;
  health: number[];
  peakMb: number;
}

let warranties = 0;

/** A warranty request created through the service, as the app does: it must succeed. */
async function writeWarrantyRequest(port: number, codes: Codes): Promise<void> {
  warranties += 1;
  const id = `bench-${process.pid}-${warranties}`;
  const fields = {
    CustomerCode: codes.warranty.customer,
    SalesOfficer: codes.warranty.officer,
    ProductCode: codes.warranty.product,
    SerialNo: `SN-${id}`,
    Complaint: 'Motor hums but does not start',
    PurchaseDate: '15/01/2026',
    ClientRequestId: id,
  };
  const path = `/API/MobileAppWebService.asmx/CreateWarrantyRequest?${new URLSearchParams(fields).toString()}`;
  const body = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  if (!body.startsWith('{"Success":true')) throw new Error(`CreateWarrantyRequest: ${body.slice(0, 300)}`);
}

/** How often /health is polled while a pass runs: a few thousand answers for its p99. */
const HEALTH_EVERY_MS = 10;

/**
 * One server, every mix `repeat + 1` times in a row, /health polled every 10 ms meanwhile, from 20 s
 * after the server started (settle). With the answer cache off every call runs its query; with it on
 * (the default) the first call of a mix does and the others are answered from the cache
 * (docs/operations.md, "Answer cache"), a warranty request written before each.
 */
async function runPass(options: Options, codes: Codes, answerCache: boolean): Promise<Pass> {
  const nodeArgs = options.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.profile];
  const server = await startServer(
    options.database,
    options.port,
    answerCache ? {} : { ANSWER_CACHE_MB: '0' },
    nodeArgs,
  );
  const pass: Pass = { calls: new Map(), health: [], peakMb: 0 };
  await settle("the server's");
  const prober = probeHealth(options.port, HEALTH_EVERY_MS);
  try {
    for (const [op, list] of Object.entries(mixes(codes))) {
      for (const [label, query] of list) {
        const target = `/API/MobileAppWebService.asmx/${op}?${new URLSearchParams(query).toString()}`;
        const times: number[] = [];
        let first = 0;
        let bytes = 0;
        for (let i = 0; i < options.repeat + 1; i++) {
          if (answerCache && i > 0) await writeWarrantyRequest(options.port, codes);
          const r = await get(options.port, target);
          if (r.status !== 200) throw new Error(`${target}: HTTP ${r.status}`);
          if (i === 0) first = r.ms;
          else times.push(r.ms);
          bytes = r.bytes;
        }
        pass.calls.set(`${op}\n${label}`, { first, times, bytes });
      }
    }
  } finally {
    pass.health = await prober.stop();
    pass.peakMb = procStatusMb(server.pid ?? 0, 'VmHWM');
    await stopServer(server);
  }
  return pass;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const codes = await prepare(options.database);
  // The queries (the first call of each mix warms up), then the same calls as the server answers them by default.
  const queries = await runPass(options, codes, false);
  const cached = await runPass(options, codes, true);
  const ms = (value: number) => value.toFixed(1).padStart(8);
  process.stdout.write(`${options.database}, ${options.repeat} calls per mix after a first one, one at a time\n`);
  process.stdout.write(
    `query: answer cache off, every call runs its query; first and kept: the default, the first call and the calls after it, each after a warranty request was written\n`,
  );
  process.stdout.write(
    `${'report'.padEnd(33)} ${'filter mix'.padEnd(32)} ${'query p50'.padStart(9)} ${'p99'.padStart(8)} ${'first'.padStart(8)} ${'kept p50'.padStart(8)} ${'p99'.padStart(8)} ${'bytes'.padStart(10)}\n`,
  );
  for (const [op, list] of Object.entries(mixes(codes))) {
    for (const [label] of list) {
      const query = queries.calls.get(`${op}\n${label}`)!;
      const kept = cached.calls.get(`${op}\n${label}`)!;
      process.stdout.write(
        `${op.padEnd(33)} ${label.padEnd(32)} ${ms(percentile(query.times, 50)).padStart(9)} ${ms(percentile(query.times, 99))} ${ms(kept.first)} ${ms(percentile(kept.times, 50))} ${ms(percentile(kept.times, 99))} ${String(query.bytes).padStart(10)}\n`,
      );
    }
  }
  for (const [name, pass] of [
    ['queries', queries],
    ['default (answer cache on)', cached],
  ] as const) {
    const { health } = pass;
    process.stdout.write(
      `${name}: /health ${health.length} polls, p50 ${percentile(health, 50).toFixed(1)} ms, p99 ${percentile(health, 99).toFixed(1)} ms, max ${percentile(health, 100).toFixed(1)} ms; server peak memory ${pass.peakMb.toFixed(0)} MB\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench-reports: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
