/**
 * What shadow mode costs a client (docs/performance.md, "Shadow proxy"): each request straight to this
 * server and through the shadow proxy (src/cutover/shadow.ts) in front of it, in one run. A second
 * instance of this server on the same data is the candidate, so every read is mirrored and compared
 * as in a real cut-over. Latency one request at a time (wrk -c1: the added p50 and p99), throughput
 * with --connections at once. The servers and the proxy run pinned to core 1, wrk to core 0.
 *
 *   npm run build && node dist/scripts/bench-shadow.js [--database URL] [--duration 8] [--connections 50]
 *
 * --database defaults to sqlite:./data/bench-10.db (seeded with scale-10 demo data when empty).
 * Not part of the test suite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  runWrk,
  spawnPinned,
  startServer,
  stopServer,
  waitUntilAnswers,
  withBenchData,
  type WrkMeasure,
} from './bench-server';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite:./data/bench-10.db' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

const ROWS = [
  { label: 'HTTP GET HelloWorld', target: '/API/SyncCustomers.asmx/HelloWorld' },
  { label: 'HTTP GET getPCNList (66 KB)', target: '/API/MobileAppWebService.asmx/getPCNList?SalesOfficer=SO0001' },
];

async function main(): Promise<void> {
  await withBenchData(values.database, 10, () => Promise.resolve());
  const [primaryPort, candidatePort, proxyPort] = [18301, 18302, 18303];
  const primary = await startServer(values.database, primaryPort);
  const candidate = await startServer(values.database, candidatePort);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-shadow-'));
  const proxy = spawnPinned(
    [
      path.join(__dirname, 'shadow.js'),
      '--primary',
      `http://127.0.0.1:${primaryPort}`,
      '--candidate',
      `http://127.0.0.1:${candidatePort}`,
      '--port',
      String(proxyPort),
      '--listen-host',
      '127.0.0.1',
      '--out',
      out,
    ],
    process.env,
  );
  try {
    await waitUntilAnswers(proxyPort, '/__shadow/summary', proxy, (status) => status === 200);
    const lines = [
      '| request | direct p50 (c1) | p99 | via proxy p50 | p99 | added p50 | direct req/s | via proxy req/s | ratio |',
      '|---|---|---|---|---|---|---|---|---|',
    ];
    for (const row of ROWS) {
      const run = (port: number, c: number): WrkMeasure =>
        runWrk(['-t1', `-c${c}`, `-d${duration}s`, `http://127.0.0.1:${port}${row.target}`]);
      run(primaryPort, 1);
      run(proxyPort, 1);
      const [directOne, viaOne] = [run(primaryPort, 1), run(proxyPort, 1)];
      const [directMany, viaMany] = [run(primaryPort, connections), run(proxyPort, connections)];
      const ms = (value: number) => `${value.toFixed(2)} ms`;
      lines.push(
        `| ${row.label} | ${ms(directOne.p50)} | ${ms(directOne.p99)} | ${ms(viaOne.p50)} | ${ms(viaOne.p99)} | ${ms(viaOne.p50 - directOne.p50)} | ${directMany.rps.toFixed(0)} | ${viaMany.rps.toFixed(0)} | ${(viaMany.rps / directMany.rps).toFixed(2)}x |`,
      );
    }
    const summary = await (await fetch(`http://127.0.0.1:${proxyPort}/__shadow/summary`)).json();
    process.stdout.write(
      `${values.database}, wrk -t1 -d${duration}s, latency at -c1, throughput at -c${connections}; servers and proxy on core 1, wrk on core 0\n${lines.join('\n')}\n`,
    );
    process.stdout.write(`proxy report: ${JSON.stringify((summary as { operations: object[] }).operations)}\n`);
  } finally {
    await stopServer(proxy);
    await stopServer(primary);
    await stopServer(candidate);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
