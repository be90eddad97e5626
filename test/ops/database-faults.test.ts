/**
 * PostgreSQL failing under the server (docs/operations.md, "Timeouts and failures"), on a private
 * cluster the test starts, freezes and stops (private-postgres.ts; the shared one is never touched):
 *
 * - hung (SIGSTOP: connections stay open, nothing answers, as in a network partition or a lock
 *   pile-up; src/db/pg-pool.ts): every waiting request gets the contract's server error in bounded
 *   time (HTTP GET: 500 plain text; SOAP: a soap:Server fault), /ready says 503, and once the
 *   database answers again the pool recovers by itself and the server serves within seconds;
 * - down at start (src/server.ts, waitForDatabase): the server listens, /health 200, /ready 503, other
 *   requests 503, a log line per attempt naming the database without its password, then it serves
 *   once the database is up; or it gives up after DB_STARTUP_TIMEOUT_MS naming what failed;
 * - down under the rate limiter (src/auth/rate-limiter.ts): counted in the process meanwhile, one
 *   warning, and in the database again once it is back.
 */
import http from 'node:http';
import { sql } from 'kysely';
import { Client } from 'pg';
import request from 'supertest';
import { createApp } from '../../src/app';
import { openEngine } from '../../src/db/engine';
import { loadSettings } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { captureLog, MAIN, SOAP11, soapEnvelope, SYNC, type LogCapture } from './ops-support';
import { PrivatePostgres, privatePostgresMissing } from './private-postgres';
import { healthPid, spawnPerTest } from './spawned-server';

interface Answer {
  status: number;
  body: string;
  contentType: string;
  ms: number;
  nosniff?: string;
}

function send(port: number, path: string, soapBody?: string): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = soapBody
      ? { 'Content-Type': SOAP11.type, SOAPAction: '"http://tempuri.org/FillAreaManagers"' }
      : {};
    const req = http.request(
      { host: '127.0.0.1', port, path, method: soapBody ? 'POST' : 'GET', headers, agent: false },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            contentType: String(res.headers['content-type']),
            ms: Date.now() - started,
            nosniff: String(res.headers['x-content-type-options']),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(soapBody);
  });
}

const getAreaManagers = (port: number) => send(port, `${MAIN}/FillAreaManagers?username=nobody`);
const soapAreaManagers = (port: number) =>
  send(port, MAIN, soapEnvelope(SOAP11, 'FillAreaManagers', '<username>nobody</username>'));

/** Twelve requests at once, more than the pool's ten connections, half HTTP GET and half SOAP 1.1. */
function twelveRequests(port: number): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? getAreaManagers(port) : soapAreaManagers(port))),
  );
}

function expectServerErrors(answers: Answer[]): void {
  answers.forEach((answer, i) => {
    expect(answer.status).toBe(500);
    if (i % 2 === 0) {
      expect(answer.contentType).toBe('text/plain; charset=utf-8');
      expect(answer.body).toBe('Server was unable to process request.\r\n');
    } else {
      expect(answer.body).toContain('<faultcode>soap:Server</faultcode>');
    }
  });
}

async function until<T>(attempt: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a start with the database unreachable', () => {
  const spawn = spawnPerTest();

  it('gives up after DB_STARTUP_TIMEOUT_MS with exit code 1 and a line naming the database and the cause', async () => {
    const server = spawn({
      DATABASE_URL: 'postgres://someone:s3cret@127.0.0.1:1/nowhere',
      DB_STARTUP_TIMEOUT_MS: '1500',
    });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    const stderr = server.stderr().trim();
    expect(stderr).toMatch(
      /^database postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nowhere: not reachable within DB_STARTUP_TIMEOUT_MS \(1500 ms, \d+ attempts\): connect ECONNREFUSED 127\.0\.0\.1:1$/,
    );
    const attempts = server.lines.filter((l) => l.level === 'warn' && typeof l.attempt === 'number');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(server.lines)).not.toContain('s3cret');
  }, 60_000);
});

const missing = privatePostgresMissing();
if (missing)
  process.stdout.write(`[left out] the tests on a private PostgreSQL cluster (hung, down at start): ${missing}.\n`);

if (!missing)
  describe('PostgreSQL failing under a running server', () => {
    let cluster: PrivatePostgres;
    let running: RunningServer | undefined;
    let log: LogCapture;

    beforeAll(async () => {
      cluster = await PrivatePostgres.create();
      cluster.start();
    }, 120_000);
    afterAll(() => cluster?.remove());
    afterEach(async () => {
      cluster.thaw();
      await running?.stop();
      running = undefined;
    });

    async function start(env: Record<string, string>): Promise<number> {
      log = captureLog();
      const settings = loadSettings({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: cluster.url,
        SHUTDOWN_DRAIN_MS: '0',
        LOG_LEVEL: 'info',
        ...env,
      });
      running = await startServer(settings, { logDestination: log.destination });
      return Number(new URL(running.address).port);
    }

    it('answers every waiting request with the server error within the timeouts, says not ready, and recovers by itself', async () => {
      const port = await start({
        DB_CONNECT_TIMEOUT_MS: '1000',
        DB_ACQUIRE_TIMEOUT_MS: '2000',
        DB_STATEMENT_TIMEOUT_MS: '3000',
      });
      // One connection of the pool is open and idle when the database hangs.
      expect((await getAreaManagers(port)).body).toContain('"Code":"NOT_FOUND"');

      cluster.freeze();
      const [answers, ready] = await Promise.all([twelveRequests(port), send(port, '/ready')]);
      expectServerErrors(answers);
      // The statement timeout (3 s) plus its client margin is the longest wait; 10 s is a generous bound.
      for (const answer of answers) expect(answer.ms).toBeLessThan(10_000);
      expect(ready.status).toBe(503);
      expect(ready.ms).toBeLessThan(5000);
      // The statement sent on the idle connection got no answer: that connection was discarded.
      await log.find((l) => l.level === 'warn' && /got no answer in time; its connection was discarded/.test(l.msg));
      const failed = log.lines.filter((l) => l.outcome === 'server_fault' && l.operation === 'FillAreaManagers');
      expect(failed).toHaveLength(12);
      for (const line of failed) expect(typeof line.reqId).toBe('string');

      cluster.thaw();
      const thawed = Date.now();
      expect(
        (
          await until(
            () => send(port, '/ready'),
            (a) => a.status === 200,
            15_000,
          )
        ).status,
      ).toBe(200);
      expect(Date.now() - thawed).toBeLessThan(15_000);
      const after = await twelveRequests(port);
      after.forEach((answer) => expect(answer.body).toMatch(/NOT_FOUND|<faultcode>soap:Client<\/faultcode>/));
    }, 90_000);

    it('ends a streamed read (a cursor) the hung database does not answer, and streams again once it is back', async () => {
      const reported: string[] = [];
      const engine = openEngine(cluster.url, {
        connectTimeoutMs: 1000,
        acquireTimeoutMs: 2000,
        statementTimeoutMs: 2000,
        onPoolError: (message) => reported.push(message),
      });
      const stream = () => engine.db.selectNoFrom(sql<number>`generate_series(1, 10)`.as('n')).stream(4);
      const drain = async () => {
        const rows: unknown[] = [];
        for await (const row of stream()) rows.push(row);
        return rows;
      };
      try {
        expect(await drain()).toHaveLength(10);
        cluster.freeze();
        const started = Date.now();
        await expect(drain()).rejects.toThrow();
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(reported).toContain('a database statement got no answer in time; its connection was discarded');
        cluster.thaw();
        expect(
          await until(
            () => drain().catch(() => []),
            (rows) => rows.length === 10,
            15_000,
          ),
        ).toHaveLength(10);
      } finally {
        await engine.close();
      }
    }, 60_000);

    it('logs each idle connection the database closed, once, and serves on a new one', async () => {
      const port = await start({});
      expect((await getAreaManagers(port)).status).toBe(200);
      const admin = new Client({ connectionString: cluster.url });
      await admin.connect();
      let terminated: number;
      try {
        const result = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
        );
        terminated = result.rowCount ?? 0;
      } finally {
        await admin.end();
      }
      expect(terminated).toBeGreaterThanOrEqual(1);
      const dropped = () =>
        log.lines.filter((l) => l.level === 'warn' && l.msg === 'an idle database connection failed; it was dropped');
      await until(
        () => Promise.resolve(dropped().length),
        (n) => n >= terminated,
        5000,
      );
      expect(dropped()).toHaveLength(terminated);
      expect((dropped()[0].err as { message: string }).message).toMatch(/terminat/);
      expect((await getAreaManagers(port)).body).toContain('"Code":"NOT_FOUND"');
    }, 60_000);

    it('with the default timeouts answers every waiting request within 45 seconds', async () => {
      const port = await start({});
      expect((await getAreaManagers(port)).status).toBe(200);
      cluster.freeze();
      const answers = await twelveRequests(port);
      expectServerErrors(answers);
      for (const answer of answers) expect(answer.ms).toBeLessThan(45_000);
      cluster.thaw();
      expect(
        (
          await until(
            () => getAreaManagers(port),
            (a) => a.status === 200,
            15_000,
          )
        ).status,
      ).toBe(200);
    }, 120_000);
  });

if (!missing)
  describe('a start while PostgreSQL is down', () => {
    let cluster: PrivatePostgres;
    const spawn = spawnPerTest();
    beforeAll(async () => {
      cluster = await PrivatePostgres.create();
    }, 120_000);
    afterAll(() => cluster?.remove());

    it('listens at once (/health 200, /ready 503, other requests 503), logs each attempt, and serves once the database is up', async () => {
      const url = cluster.url.replace('postgres@', 'postgres:pa55word@');
      const running = spawn({
        DATABASE_URL: url,
        DB_STARTUP_TIMEOUT_MS: '120000',
        SHUTDOWN_DRAIN_MS: '0',
        LOG_LEVEL: 'debug',
      });
      const first = await running.waitForLine((l) => l.level === 'warn' && l.attempt === 1);
      expect(first.msg).toBe(
        `the database postgres://postgres:***@127.0.0.1:${cluster.port}/postgres is not reachable; trying again`,
      );
      expect(first.error).toMatch(/ECONNREFUSED/);
      const port = await running.port();
      expect(await healthPid(running, port)).toBe(running.child.pid);
      // The probes in any letter case, as the router answers them once the server is up.
      expect((await send(port, '/HEALTH?probe=1')).status).toBe(200);
      const ready = await send(port, '/ready');
      expect(ready.status).toBe(503);
      const readyAnyCase = await send(port, '/Ready');
      expect(readyAnyCase.status).toBe(503);
      expect(readyAnyCase.body).toContain('"reason":"the server is starting"');
      const call = await getAreaManagers(port);
      expect(call.status).toBe(503);
      expect(call.body).toBe('Service Unavailable: the server is starting and waits for its database.\r\n');
      expect(call.nosniff).toBe('nosniff');

      await running.waitForLine((l) => l.level === 'warn' && l.attempt === 3);
      cluster.start();
      await running.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('listening on'), 30_000);
      expect((await send(port, '/ready')).status).toBe(200);
      expect((await getAreaManagers(port)).body).toContain('"Code":"NOT_FOUND"');
      expect(JSON.stringify(running.lines)).not.toContain('pa55word');

      running.child.kill('SIGTERM');
      expect(await running.exited).toEqual({ code: 0, signal: null });
    }, 120_000);

    it('counts rate limits in the process while the database is down, and in the database again once it is back', async () => {
      cluster.stop();
      const log = captureLog();
      const settings = loadSettings({
        DATABASE_URL: cluster.url,
        RATE_LIMIT_PER_MINUTE: '3',
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'info',
      });
      const engine = openEngine(cluster.url, { connectTimeoutMs: 500, acquireTimeoutMs: 500 });
      const app = createApp({ settings, engine, logDestination: log.destination });
      const hello = (client: string) => request(app).get(`${SYNC}/HelloWorld`).set('X-Forwarded-For', client);
      try {
        const down: number[] = [];
        for (let i = 0; i < 4; i++) down.push((await hello('10.9.9.1')).status);
        expect(down).toEqual([200, 200, 200, 429]);
        expect(
          log.lines.filter(
            (l) => l.msg === 'the rate-limit store (postgres) failed; counting in this process until it answers',
          ),
        ).toHaveLength(1);
        cluster.start();
        expect((await hello('10.9.9.2')).status).toBe(200);
        await log.find((l) => l.level === 'info' && l.msg === 'the rate-limit store (postgres) answers again');
        const rows = await sql<{ key: string }>`select key from rate_limits`.execute(engine.db);
        expect(rows.rows.map((r) => r.key)).toEqual(['asmx:address:10.9.9.2']);
      } finally {
        await app.close();
        await engine.close();
      }
    }, 60_000);
  });
