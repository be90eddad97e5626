/**
 * Progress while a file loads (docs/import.md, "Report"): a line rewritten in place on a terminal,
 * plain lines now and then otherwise, none with --quiet; each with the rows, the rate and the time
 * left from the share of the file read. A file of 3,000 zones, loaded for real, with a clock that moves
 * six seconds per batch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshEngine } from '../../test/support/engines';
import type { Engine } from '../db/engine';
import { findImportFiles } from './import-files';
import { progressLine, reportingListener, type ProgressStyle } from './import-report';
import { runImport } from './import-run';
import { RejectsFile } from './rejects-file';

let engine: Engine;
let dir: string;

beforeAll(async () => {
  engine = await freshEngine('sqlite');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-progress-'));
  const rows = Array.from({ length: 3000 }, (_, i) => `Z${i},Zone ${i}`);
  fs.writeFileSync(path.join(dir, 'zones.csv'), `code,name\n${rows.join('\n')}\n`);
});
afterAll(() => engine?.close());

async function printed(style: ProgressStyle): Promise<string> {
  let clock = 0;
  const out = {
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
  const rejects = new RejectsFile(path.join(dir, `rejects-${style}.csv`));
  try {
    await runImport(
      engine,
      findImportFiles(dir).files,
      { dryRun: true, dateOrder: 'DMY' },
      reportingListener(out, rejects, style, () => (clock += 6000)),
    );
  } finally {
    rejects.close();
  }
  return out.text;
}

it('rewrites one line in place on a terminal, then gives the file line', async () => {
  const text = await printed('terminal');
  const parts = text.split('\r\u001b[K').filter((part) => part !== '');
  expect(parts.length).toBeGreaterThan(2);
  expect(parts[0]).toMatch(/^zones\.csv: 500 rows, \d+ rows\/s, \d+ s left$/);
  expect(parts.at(-1)).toBe('zones.csv: read 3000, inserted 3000, updated 0, rejected 0\n');
});

it('prints plain lines at most every 10 seconds when the output is not a terminal, and none when quiet', async () => {
  const lines = (await printed('lines')).trim().split('\n');
  expect(lines.slice(0, -1).every((line) => /^zones\.csv: [\d,]+ rows, [\d,]+ rows\/s, \d+ s left$/.test(line))).toBe(
    true,
  );
  // Six seconds per batch: every other batch's progress is shown.
  expect(lines.length - 1).toBeGreaterThanOrEqual(2);
  expect(lines.length - 1).toBeLessThanOrEqual(3);
  expect(await printed('quiet')).toBe('zones.csv: read 3000, inserted 3000, updated 0, rejected 0\n');
});

it('works out the rate and the time left from the share of the file read', () => {
  expect(progressLine('orders.csv', 120_000, 25_000_000, 100_000_000, 10)).toBe(
    'orders.csv: 120,000 rows, 12,000 rows/s, 30 s left',
  );
  expect(progressLine('orders.csv', 10, 0, 0, 0)).toBe('orders.csv: 10 rows, 0 rows/s');
});
