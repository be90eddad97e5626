/**
 * WORKERS (src/main.ts, src/process/cluster.ts): on SQLite the server refuses more than one process at
 * start; on PostgreSQL WORKERS=2 serves from two processes sharing the port, replaces a worker that
 * dies, sums the metrics of both, and stops every worker gracefully on SIGTERM (exit 0).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Pool } from 'pg';
import { SYNC } from './ops-support';
import { healthPid, spawnPerTest, type SpawnedServer } from './spawned-server';

/** A new connection per request (agent: false), so the cluster may hand each to another worker. */
function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The workers that answered `tries` requests for /health, by the pid of each request's log line. */
async function pidsAnswering(server: SpawnedServer, port: number, tries: number): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < tries; i++) {
    const pid = await healthPid(server, port);
    expect(pid).toBeGreaterThan(0);
    pids.add(pid!);
  }
  return pids;
}

describe('WORKERS', () => {
  const spawn = spawnPerTest();

  it('refuses more than one worker on SQLite, naming WORKERS, with exit code 1', async () => {
    const server = spawn({ DATABASE_URL: 'sqlite::memory:', WORKERS: '2' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/WORKERS/);
    expect(lines[0]).toMatch(/SQLite.*single-writer/);
  });

  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    process.stdout.write(
      '[left out] WORKERS=2 on PostgreSQL (two pids, a dead worker replaced, SIGTERM stops all): TEST_DATABASE_URL is not set.\n',
    );
    return;
  }

  describe('on PostgreSQL', () => {
    const schema = `w_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    afterAll(async () => {
      const pool = new Pool({ connectionString: databaseUrl, max: 1 });
      try {
        await pool.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await pool.end();
      }
    });

    it('serves from two processes, replaces a dead worker, and stops all on SIGTERM with exit 0', async () => {
      const url = new URL(databaseUrl);
      url.searchParams.set('schema', schema);
      const running = spawn({
        DATABASE_URL: url.toString(),
        WORKERS: '2',
        SHUTDOWN_TIMEOUT_MS: '5000',
        SHUTDOWN_DRAIN_MS: '500',
        LOG_LEVEL: 'debug',
      });
      const port = await running.port();
      await running.waitForLine(
        (l) =>
          l.msg?.startsWith('listening') && l.pid !== running.lines.find((m) => m.msg?.startsWith('listening'))!.pid,
      );
      const primaryPid = running.child.pid!;

      const pids = await pidsAnswering(running, port, 12);
      expect(pids.size).toBe(2);
      expect(pids.has(primaryPid)).toBe(false);
      expect((await get(port, `${SYNC}/HelloWorld`)).body).toContain('Hello World');

      // The metrics answer is the sum over both workers whichever of them is asked.
      for (let i = 0; i < 4; i++) await get(port, `${SYNC}/HelloWorld`);
      const metrics = (await get(port, '/metrics')).body;
      expect(metrics).toMatch(
        /^asmx_requests_total\{service="SyncCustomers",operation="HelloWorld",binding="httpget",outcome="success"\} 5$/m,
      );

      const [victim] = pids;
      process.kill(victim, 'SIGKILL');
      await running.waitForLine((l) => l.msg === 'worker died; replacing it' && l.workerPid === victim);
      await running.waitForLine((l) => l.msg?.startsWith('listening') && ![...pids].includes(l.pid as number));
      const after = await pidsAnswering(running, port, 12);
      expect(after.size).toBe(2);
      expect(after.has(victim)).toBe(false);

      running.child.kill('SIGTERM');
      expect(await running.exited).toEqual({ code: 0, signal: null });
      for (const pid of after) expect(() => process.kill(pid, 0)).toThrow();
      expect(
        running.lines
          .filter((l) => l.msg === 'stopped')
          .map((l) => l.pid)
          .sort(),
      ).toEqual([...after].sort());
    });

    it('with METRICS_PORT, serves the sum over both workers there and /metrics 404 on the main port', async () => {
      const url = new URL(databaseUrl);
      url.searchParams.set('schema', schema);
      const running = spawn({
        DATABASE_URL: url.toString(),
        WORKERS: '2',
        METRICS_PORT: '0',
        SHUTDOWN_TIMEOUT_MS: '5000',
        SHUTDOWN_DRAIN_MS: '0',
        LOG_LEVEL: 'debug',
      });
      const port = await running.port();
      const listening = running.lines.filter((l) => l.msg?.startsWith('listening'));
      await running.waitForLine((l) => l.msg?.startsWith('listening') && l.pid !== listening[0].pid);
      const metricsPorts = new Set(
        running.lines.filter((l) => l.msg?.startsWith('listening')).map((l) => new URL(String(l.metricsAddress)).port),
      );
      // node:cluster shares the one metrics port between the workers as it shares the main one.
      expect(metricsPorts.size).toBe(1);
      const metricsPort = Number([...metricsPorts][0]);
      expect(metricsPort).not.toBe(port);
      expect((await pidsAnswering(running, port, 12)).size).toBe(2);
      for (let i = 0; i < 5; i++) await get(port, `${SYNC}/HelloWorld`);
      expect((await get(port, '/metrics')).status).toBe(404);
      for (let i = 0; i < 4; i++) {
        const metrics = await get(metricsPort, '/metrics');
        expect(metrics.status).toBe(200);
        expect(metrics.body).toMatch(
          /^asmx_requests_total\{service="SyncCustomers",operation="HelloWorld",binding="httpget",outcome="success"\} 5$/m,
        );
      }
      running.child.kill('SIGTERM');
      expect(await running.exited).toEqual({ code: 0, signal: null });
      await expect(get(metricsPort, '/metrics')).rejects.toThrow();
    });
  });
});
