/**
 * npm run summaries -- rebuild | check (scripts/summaries.ts) on a real database file: in step after
 * seeding, out of step after a raw SQL change (exit 1, the tables named), in step after a rebuild.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openEngine } from '../db/engine';
import { main as seedMain } from '../../scripts/seed';
import { main } from '../../scripts/summaries';
import { captureOutput } from '../../test/support/output';

describe('npm run summaries (scripts/summaries.ts)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'summaries-cli-'));
    env = { DATABASE_URL: `sqlite:${path.join(dir, 'demo.db')}` };
    expect(await seedMain(['--scale', '0.02', '--as-of', '2026-05-15'], env, captureOutput())).toBe(0);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('says the seeded summaries are in step, table by table, and exits 0', async () => {
    const io = captureOutput();
    expect(await main(['check'], env, io)).toBe(0);
    expect(io.errors).toEqual([]);
    expect(io.lines.filter((l) => l.includes('rows  in step')).length).toBeGreaterThanOrEqual(10);
    expect(io.lines.at(-1)).toBe('the summary data is in step with the raw rows');
  });

  it('finds a raw SQL change (exit 1), and a rebuild brings them back in step', async () => {
    const engine = openEngine(env.DATABASE_URL!);
    try {
      await sql`update invoice_lines set value = value + 100 where line_no = 1`.execute(engine.db);
    } finally {
      await engine.close();
    }
    const broken = captureOutput();
    expect(await main(['check'], env, broken)).toBe(1);
    expect(broken.lines.find((l) => l.startsWith('sales_period_totals'))).toMatch(
      /OUT OF STEP: \d+ stored rows the raw rows do not give, \d+ rows missing/,
    );
    expect(broken.lines.at(-1)).toBe('the summary data is out of step: run `npm run summaries -- rebuild`');

    const rebuilt = captureOutput();
    expect(await main(['rebuild'], env, rebuilt)).toBe(0);
    expect(rebuilt.lines[0]).toMatch(/^rebuilt the summary data of sqlite:.* in \d+\.\d s$/);
    expect(await main(['check'], env, captureOutput())).toBe(0);
  });

  it('refuses anything but one of its two commands (exit 2, usage)', async () => {
    for (const argv of [[], ['repair'], ['check', 'extra']]) {
      const io = captureOutput();
      expect(await main(argv, env, io)).toBe(2);
      expect(io.errors).toEqual(['usage: npm run summaries -- rebuild | check']);
    }
  });
});
