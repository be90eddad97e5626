/**
 * The first start on an empty embedded database (src/server.ts), the real program in a process of its
 * own (its seeding child runs the program again): the server listens at once, migrates, then has the
 * demo data written, which takes seconds. All that time /ready says 503, so a load balancer
 * sends nothing yet; the moment /ready says 200, operations are served. (Before, /ready turned 200 as
 * soon as the migrations were applied, while operations were still refused with 503.)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnPerTest } from './spawned-server';

function get(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('readiness during the first start', () => {
  const spawn = spawnPerTest();
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-ready-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('says 503 while the demo data is written, and serves operations from the moment it says 200', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const running = spawn({
      DATABASE_URL: `sqlite:${path.join(dir, 'demo.db')}`,
      PORT: String(port),
      SEED_DEMO_DATA: 'true',
      SHUTDOWN_DRAIN_MS: '0',
    });
    const seen: { ready: number; operation: number }[] = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      const [ready, operation] = await Promise.all([
        get(port, '/ready').catch(() => 0),
        get(port, '/API/MobileAppWebService.asmx/FillProfitCenterForCustomer').catch(() => 0),
      ]);
      seen.push({ ready, operation });
      if (ready === 200 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const listening = seen.filter((s) => s.ready !== 0);
    // It listened while it was still preparing the database, and said so.
    expect(listening.some((s) => s.ready === 503 && s.operation === 503)).toBe(true);
    // Never ready while operations are refused.
    expect(listening.filter((s) => s.ready === 200 && s.operation !== 200)).toEqual([]);
    expect(seen.at(-1)).toEqual({ ready: 200, operation: 200 });
    running.child.kill('SIGTERM');
    expect((await running.exited).code).toBe(0);
  }, 180_000);
});
