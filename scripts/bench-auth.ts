/**
 * npm run build && node dist/scripts/bench-auth.js [--database URL] [--requests N] [--attackers C]
 *
 * An API-key request's latency while wrong Basic passwords are being checked (docs/operations.md,
 * "Password checks under load"; the figures in docs/performance.md, the same heading): the real server, started as a child process pinned to core 1
 * (bench-server.ts), with AUTH_MODE=any, the failed-login ceilings raised out of the way (the attack
 * stands for many addresses) and the answer cache off, so that every answer is compressed anew on
 * libuv's thread pool, where scrypt runs too. On a database seeded with scale-1 demo data when empty
 * (default: sqlite:./data/bench-auth.db), the user admin gets a password and an API key.
 *
 *   idle          --requests (200) gzip'd HTTP GET FillAreaManagers with the API key, one at a time
 *   under attack  the same, while --attackers (32) clients each send a wrong Basic password a second;
 *                 with the attackers' answers (401 checked, 503 refused unchecked) and how long a
 *                 right password took to be answered meanwhile
 *
 * It prints one line per figure: p50 and p99 in ms. Not part of the test suite.
 */
import http from 'node:http';
import { generateApiKey, hashSecret } from '../src/auth/api-key';
import { insertKey, storePassword } from '../src/auth/credential-store';
import { hashPassword } from '../src/auth/password-hash';
import { flagValue, percentile, PINNED, startServer, stopServer, withBenchData } from './bench-server';

const MAIN = '/API/MobileAppWebService.asmx';
const USER = { id: 'ADM001', username: 'admin', password: 'bench-auth password' };
const ATTEMPT_EVERY_MS = 1000;

interface Options {
  databaseUrl: string;
  requests: number;
  attackers: number;
  port: number;
}

function parseOptions(argv: string[]): Options {
  const value = (flag: string) => flagValue(argv, flag);
  return {
    databaseUrl: value('--database') ?? 'sqlite:./data/bench-auth.db',
    requests: Number(value('--requests') ?? '200'),
    attackers: Number(value('--attackers') ?? '32'),
    port: Number(value('--port') ?? '18091'),
  };
}

/** A whole GET on a connection of its own: status and time in ms. */
function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      })
      .on('error', reject);
  });
}

const basic = (username: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
});

/** `count` API-key requests one after the other; their latencies in ms (each must be a gzip'd 200). */
async function keyedRequests(port: number, key: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const { status, ms } = await get(port, `${MAIN}/FillAreaManagers`, { 'X-API-Key': key, 'Accept-Encoding': 'gzip' });
    if (status !== 200) throw new Error(`the API-key request answered ${status}`);
    latencies.push(ms);
  }
  return latencies;
}

/**
 * Clients each sending a wrong Basic password once a second (the next when the answer has come and
 * the second is over) until stop(), which resolves with the statuses they got. Paced, so that what is
 * measured is the password checks, not a flood of requests on the event loop.
 */
function attack(port: number, clients: number): { stop(): Promise<Map<number, number>> } {
  let running = true;
  const statuses = new Map<number, number>();
  const client = async (n: number) => {
    for (let i = 0; running; i++) {
      const sent = performance.now();
      const { status } = await get(port, `${MAIN}/FillAreaManagers`, basic(USER.username, `wrong ${n}.${i}`));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      await sleep(Math.max(0, ATTEMPT_EVERY_MS - (performance.now() - sent)));
    }
  };
  const all = Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  return {
    async stop() {
      running = false;
      await all;
      return statuses;
    },
  };
}

const line = (label: string, ms: number[]) =>
  `${label.padEnd(34)} p50 ${percentile(ms, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(ms, 99).toFixed(1).padStart(7)} ms   (${ms.length} requests)`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const { key, others } = await withBenchData(options.databaseUrl, 1, async (engine) => {
    const now = new Date().toISOString();
    // The admin, and five more users whose first logins are timed under attack.
    const users = await engine.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('active', '=', 1)
      .where('id', '!=', USER.id)
      .orderBy('id')
      .limit(5)
      .execute();
    for (const user of [USER, ...users])
      await storePassword(engine.db, user.id, await hashPassword(USER.password), now);
    const made = generateApiKey();
    await insertKey(engine.db, {
      key_id: made.keyId,
      user_id: USER.id,
      secret_hash: hashSecret(made.secret),
      label: 'bench-auth',
      created_at: now,
    });
    return { key: made.key, others: users.map((u) => u.username) };
  });
  const server = await startServer(options.databaseUrl, options.port, {
    AUTH_MODE: 'any',
    ANSWER_CACHE_MB: '0',
    LOGIN_FAILURES_PER_MINUTE: '1000000',
    LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '1000000',
  });
  try {
    process.stdout.write(
      `server on core 1${PINNED ? '' : ' (taskset missing: not pinned)'}; UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}\n`,
    );
    await keyedRequests(options.port, key, 20);
    process.stdout.write(`${line('API key, idle', await keyedRequests(options.port, key, options.requests))}\n`);
    const login = await get(options.port, `${MAIN}/FillAreaManagers`, basic(USER.username, USER.password));
    process.stdout.write(`${'right password, idle'.padEnd(34)} ${login.ms.toFixed(1)} ms (${login.status})\n`);

    const attackers = attack(options.port, options.attackers);
    await sleep(1000);
    const underAttack = await keyedRequests(options.port, key, options.requests);
    // Users not logged in yet, so that each login is verified (not remembered).
    const logins: string[] = [];
    for (const username of others) {
      const { status, ms } = await get(options.port, `${MAIN}/FillAreaManagers`, basic(username, USER.password));
      logins.push(`${ms.toFixed(0)} ms (${status})`);
    }
    const statuses = await attackers.stop();
    process.stdout.write(`${line(`API key, ${options.attackers} clients of wrong passwords`, underAttack)}\n`);
    process.stdout.write(`${'first logins meanwhile'.padEnd(34)} ${logins.join(', ')}\n`);
    const answered = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n} x ${status}`)
      .join(', ');
    process.stdout.write(`wrong passwords answered: ${answered}\n`);
  } finally {
    await stopServer(server);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
