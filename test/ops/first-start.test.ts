/**
 * A first start on an empty SQLite file (SEED_DEMO_DATA=true, as `npm start` on a fresh clone): the
 * demo data is written by a process of its own, so the serving process never holds what generating it
 * took (src/process/seed-child.ts); the server then serves that data, and a restart seeds nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnPerTest } from './spawned-server';

function getJson(port: number, target: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
        );
      })
      .on('error', reject);
  });
}

const SEEDED = 'seeded the empty database with demo data';

describe('the first start on an empty embedded database', () => {
  const spawn = spawnPerTest();
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asmx-first-start-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('seeds in a process of its own, serves the data, and seeds nothing after a restart', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'mobileapp.db')}`, SEED_DEMO_DATA: 'true' };
    const first = spawn(env);
    const seeded = await first.waitForLine((line) => line.msg === SEEDED, 120_000);
    expect(Number(seeded.rows)).toBeGreaterThan(100_000);
    expect(typeof seeded.seedPid).toBe('number');
    expect(seeded.seedPid).not.toBe(first.child.pid);
    const list = await getJson(await first.port(), '/API/MobileAppWebService.asmx/getPCNList');
    expect(list.status).toBe(200);
    expect(list.body.Success).toBe(true);
    expect(Number(list.body.Count)).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);

    const again = spawn(env);
    const port = await again.port();
    expect((await getJson(port, '/API/MobileAppWebService.asmx/getPCNList')).body.Count).toBe(list.body.Count);
    expect(again.lines.some((line) => line.msg === SEEDED)).toBe(false);
  }, 180_000);
});
