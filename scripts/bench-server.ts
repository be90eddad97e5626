/**
 * What the benchmarks (bench-reports, bench-hotpath, bench-streams, bench-auth) share: their flags,
 * the demo data they need, a server process pinned to core 1 with the load generator on core 0 (when
 * taskset is there), and the figures read from /proc and from latencies. Not part of the test suite.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { withMigratedEngine } from '../src/db/migrate';
import type { Engine } from '../src/db/engine';
import { isEmpty, seed } from '../src/demo-data';

export const PINNED = spawnSync('taskset', ['--version']).status === 0;

/** The word after `flag` in a command line, or undefined when the flag is not there. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
}

/** Opens the database, seeds it with demo data of `scale` first when it is empty, and runs `work` on it. */
export function withBenchData<T>(database: string, scale: number, work: (engine: Engine) => Promise<T>): Promise<T> {
  return withMigratedEngine(database, async (engine) => {
    if (await isEmpty(engine)) {
      process.stdout.write(`seeding scale ${scale} into ${engine.describe} ...\n`);
      const summary = await seed(engine, { scale });
      process.stdout.write(`seeded ${summary.totalRows} rows in ${(summary.millis / 1000).toFixed(1)} s\n`);
    }
    return work(engine);
  });
}

/** bin/serve, which every start command runs: node's flags and the allocator's settings (docs/operations.md, "Memory"). */
export const SERVE = path.join(__dirname, '..', '..', 'bin', 'serve');

/** The command that runs this node with `args`. */
export function nodeCommand(args: readonly string[]): string[] {
  return [process.execPath, ...args];
}

/**
 * Runs `command` (a program and its arguments) on `core` (1, the servers'; this process moves to core 0),
 * its standard output dropped or written to `stdoutFile`. bin/serve runs the node running this.
 */
export function spawnPinned(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  stdoutFile = '/dev/null',
  core = '1',
): ChildProcess {
  const stdio: ['ignore', number, 'inherit'] = ['ignore', fs.openSync(stdoutFile, 'w'), 'inherit'];
  const withNode = { NODE: process.execPath, ...env };
  if (!PINNED) return spawn(command[0], command.slice(1), { env: withNode, stdio });
  spawnSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  return spawn('taskset', ['-c', core, ...command], { env: withNode, stdio });
}

/** This server (dist/src/main.js) on `database` and `port`, started as `npm start` starts it, pinned; resolves once /ready says 200. */
export async function startServer(
  database: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
  nodeArgs: readonly string[] = [],
): Promise<ChildProcess> {
  // A server left by an earlier run would answer /ready in place of this one, and be the one measured.
  if (!(await portFree(port))) throw new Error(`port ${port} is taken (a server of an earlier run?)`);
  const main = path.join(__dirname, '..', 'src', 'main.js');
  const child = spawnPinned([SERVE, ...nodeArgs, main], {
    ...process.env,
    DATABASE_URL: database,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    ...env,
  });
  await waitUntilAnswers(port, '/ready', child, (status) => status === 200);
  return child;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Resolves once GET `target` answers a status `ok` accepts; rejects when the process exits or three minutes pass (a first start seeds). */
export async function waitUntilAnswers(
  port: number,
  target: string,
  child: ChildProcess,
  ok: (status: number) => boolean,
): Promise<void> {
  for (let i = 0; i < 900; i++) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited (${child.exitCode})`);
    const status = await statusOf(port, target).catch(() => 0);
    if (ok(status)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  await stopServer(child);
  throw new Error(`the server on port ${port} did not answer ${target}`);
}

function statusOf(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** SIGTERM (the server drains), SIGKILL after 15 s. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
  await exited;
  clearTimeout(timer);
}

/**
 * Polls /health every `everyMs` from a process of its own (health-prober.ts) until stop(), which
 * resolves with the latencies in ms. A probe sent from the process that also takes in megabytes of
 * answers would time that process's busy event loop too (p99 25 to 59 ms where the server's own was
 * 12 to 13 ms); a liveness probe is a process of its own as well. It runs on this process's core.
 */
export function probeHealth(port: number, everyMs: number): { stop(): Promise<number[]> } {
  const prober = fork(path.join(__dirname, 'health-prober.js'), [String(port), String(everyMs)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const latencies = new Promise<number[]>((resolve, reject) => {
    prober.once('message', (values) => resolve(values as number[]));
    prober.once('exit', (code) => reject(new Error(`the /health prober exited (${code})`)));
  });
  return {
    stop() {
      prober.send('stop');
      return latencies;
    },
  };
}

/** A field of /proc/<pid>/status in MB (VmRSS, VmHWM); taskset execs the server in its own process. */
export function procStatusMb(pid: number, field: string): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** The clock ticks per second of /proc's times (`getconf CLK_TCK`); 100 where getconf does not say. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU time (user + system, ms) so far of process `pid` and all its threads, from /proc/<pid>/stat, or
 * with `thread` of that one thread alone (the main thread's id is the process's).
 */
export function procCpuMs(pid: number, thread?: number): number {
  const stat = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = fs.readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The p-th percentile of the values (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Waits out the collections that follow a process's start: V8's memory reducer runs a full collection
 * in every idle isolate about 8 s after start and again some 8 s later (seen with --trace-gc in this
 * server's main thread and SQLite workers, and the peers are no different). On the server's one core
 * they fell on the first rows of bench-hotpath, which then had a p99 over five times their p50 that
 * no later run of them showed, and on the whole of bench-reports' second pass, which is shorter than
 * that. A server in service runs for hours; these benches measure it after its start.
 */
export async function settle(whose: string): Promise<void> {
  process.stdout.write(`waiting ${SETTLE_MS / 1000} s for ${whose} start-up collections\n`);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

const SETTLE_MS = 20_000;

export interface WrkMeasure {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors (timeouts included). */
  errors: number;
  requests: number;
}

/** One wrk run with `args` (pinned to core 0), its figures in milliseconds. */
export function runWrk(args: readonly string[]): WrkMeasure {
  const all = ['--latency', ...args];
  const run = PINNED
    ? spawnSync('taskset', ['-c', '0', 'wrk', ...all], { encoding: 'utf8' })
    : spawnSync('wrk', all, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  const out = run.stdout;
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: millis(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    p99: millis(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? ''),
    errors:
      Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) +
      (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN),
  };
}

function millis(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return NaN;
  const scale = { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * scale;
}
