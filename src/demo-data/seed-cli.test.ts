import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEngine } from '../db/engine';
import { main, parseArguments } from '../../scripts/seed';
import { captureOutput } from '../../test/support/output';

describe('npm run seed (scripts/seed.ts)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let file: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-cli-'));
    file = path.join(dir, 'demo.db');
    env = { DATABASE_URL: `sqlite:${file}` };
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function orderCount(): Promise<number> {
    const engine = openEngine(env.DATABASE_URL!);
    try {
      const row = await engine.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    } finally {
      await engine.close();
    }
  }

  it('migrates and seeds a new database file, printing a line per table and the time', async () => {
    const io = captureOutput();
    expect(await main(['--scale', '0.02', '--as-of', '2026-05-15'], env, io)).toBe(0);
    expect(io.errors).toEqual([]);
    const orders = io.lines.find((l) => l.startsWith('orders '));
    expect(orders).toMatch(/^orders\s+[\d,]+ rows$/);
    expect(io.lines.at(-1)).toMatch(
      /^seeded [\d,]+ rows \(scale 0\.02, 2025-04-01 to 2026-05-15\) into sqlite:.*demo\.db in \d+\.\d s$/,
    );
    expect(await orderCount()).toBe(Number(orders!.replace(/\D/g, '')));
  });

  it('refuses to seed over existing data without --reset (exit 1)', async () => {
    const before = await orderCount();
    const io = captureOutput();
    expect(await main(['--scale=0.02', '--as-of=2026-05-15'], env, io)).toBe(1);
    expect(io.errors.join('\n')).toMatch(/not empty[\s\S]*--reset/);
    expect(await orderCount()).toBe(before);
  });

  it('replaces the data with --reset, deterministically', async () => {
    const before = await orderCount();
    const io = captureOutput();
    expect(await main(['--reset', '--scale', '0.02', '--as-of', '2026-05-15'], env, io)).toBe(0);
    expect(await orderCount()).toBe(before);
    expect(await main(['--reset', '--scale', '0.02', '--as-of', '2026-04-02'], env, captureOutput())).toBe(0);
    expect(await orderCount()).toBeLessThan(before);
  });

  it.each([
    [['--scale', '0']],
    [['--scale', 'abc']],
    [['--scale', '-1']],
    [['--scale']],
    [['--as-of', '2026-02-30']],
    [['--as-of', '15/05/2026']],
    [['--reset=yes']],
    [['--bogus']],
  ])('answers bad arguments %p with a message and exit code 2', async (argv) => {
    const io = captureOutput();
    const other = { DATABASE_URL: `sqlite:${path.join(dir, 'untouched', 'x.db')}` };
    expect(await main(argv, other, io)).toBe(2);
    expect(io.errors[0]).toMatch(/^seed: /);
    expect(io.errors[1]).toMatch(/^usage: npm run seed/);
    expect(fs.existsSync(path.join(dir, 'untouched'))).toBe(false);
  });

  it('answers a bad DATABASE_URL with exit code 2', async () => {
    const io = captureOutput();
    expect(await main([], { DATABASE_URL: 'mysql://db/x' }, io)).toBe(2);
    expect(io.errors[0]).toMatch(/DATABASE_URL/);
  });

  it('defaults to scale 1 as of today', () => {
    expect(parseArguments([], '2026-11-21')).toEqual({ scale: 1, asOf: '2026-11-21', reset: false });
    expect(parseArguments(['--scale', '.5', '--reset'], '2026-11-21')).toEqual({
      scale: 0.5,
      asOf: '2026-11-21',
      reset: true,
    });
  });
});
