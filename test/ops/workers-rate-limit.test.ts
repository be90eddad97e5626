/**
 * RATE_LIMIT_PER_MINUTE with WORKERS=2 on PostgreSQL (src/auth/rate-limiter.ts): the count lives in
 * the database, so the limit holds across both worker processes (it used to be the setting times
 * the number of processes). Each request comes on a connection of its own, so the cluster hands
 * them to both workers. The failed logins (src/auth/login-throttle.ts) are counted there too.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { newTestRunId, schemaPrefix } from '../support/engines';
import { SYNC } from './ops-support';
import { spawnPerTest, type SpawnedServer } from './spawned-server';

function status(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('rate limiting across WORKERS=2', () => {
  const spawn = spawnPerTest();
  // A schema of this run's, dropped with the others when the run ends (test/support/engines.ts).
  const schema = `${schemaPrefix(process.env.TEST_RUN_ID ?? newTestRunId())}${randomBytes(4).toString('hex')}`;

  it('refuses RATE_LIMIT_STORE=postgres on SQLite at start, naming the variable', async () => {
    const server = spawn({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_STORE: 'postgres' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.stderr().trim()).toBe(
      'Invalid setting RATE_LIMIT_STORE: postgres needs a PostgreSQL DATABASE_URL (use memory or redis with SQLite)',
    );
  });

  if (!databaseUrl) {
    process.stdout.write('[left out] rate limiting across WORKERS=2 on PostgreSQL: TEST_DATABASE_URL is not set.\n');
    return;
  }

  /** WORKERS=2 on a schema of its own, once both workers listen; resolves with the server and its port. */
  async function startWorkers(
    schemaName: string,
    env: Record<string, string>,
  ): Promise<{ running: SpawnedServer; port: number }> {
    const url = new URL(databaseUrl!);
    url.searchParams.set('schema', schemaName);
    const running = spawn({ DATABASE_URL: url.toString(), WORKERS: '2', SHUTDOWN_DRAIN_MS: '0', ...env });
    const port = await running.port();
    await running.waitForLine(
      (l) => l.msg?.startsWith('listening') && l.pid !== running.lines.find((m) => m.msg?.startsWith('listening'))!.pid,
    );
    return { running, port };
  }

  /** Both workers answered, one of them with a 429; then the server stops cleanly. */
  async function expectBothWorkersAndStop(running: SpawnedServer): Promise<void> {
    await running.waitForLine((l) => l.msg === 'request completed' && l.outcome === 'rate_limited');
    const answeredBy = new Set(
      running.lines.filter((l) => l.msg === 'request completed' && l.operation === 'HelloWorld').map((l) => l.pid),
    );
    expect(answeredBy.size).toBe(2);
    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, signal: null });
  }

  it('holds the limit of one client across both workers: 5 of 20 requests allowed', async () => {
    const { running, port } = await startWorkers(schema, { RATE_LIMIT_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await status(port, `${SYNC}/HelloWorld`));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    await expectBothWorkersAndStop(running);
  }, 90_000);

  it('counts the failed logins of one address and username across both workers: 3 answered 401, then 429', async () => {
    const { running, port } = await startWorkers(`${schema}l`, { AUTH_MODE: 'basic', LOGIN_FAILURES_PER_MINUTE: '3' });
    const wrong = { Authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` };
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(await status(port, `${SYNC}/HelloWorld`, wrong));
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    await expectBothWorkersAndStop(running);
  }, 90_000);
});
