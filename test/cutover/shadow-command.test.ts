/**
 * What npm run shadow writes itself (scripts/shadow.ts): a --primary or --candidate URL may carry a
 * password, and no line of the command shows it, whether it starts or refuses its options.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../scripts/shadow';
import { captureOutput } from '../support/output';

const SECRET = 'S3cretPW';

async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 10_000) throw new Error('the shadow wrote no line');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('names the servers without their passwords when it starts', async () => {
  const io = captureOutput();
  const running = main(
    [
      '--primary',
      `http://ops:${SECRET}@127.0.0.1:1/`,
      '--candidate',
      `http://127.0.0.1:2/?password=${SECRET}`,
      '--listen-host',
      '127.0.0.1',
      '--port',
      '0',
      '--out',
      fs.mkdtempSync(path.join(os.tmpdir(), 'shadow-')),
    ],
    io,
  );
  await until(() => io.lines.length > 0);
  process.emit('SIGTERM', 'SIGTERM');
  expect(await running).toBe(0);
  const text = [...io.lines, ...io.errors].join('\n');
  expect(text).toContain('primary http://ops:***@127.0.0.1:1/');
  expect(text).not.toContain(SECRET);
});

it('names a refused URL without its password', async () => {
  const io = captureOutput();
  expect(await main(['--primary', `ftp://ops:${SECRET}@legacy/`, '--candidate', 'http://127.0.0.1:2/'], io)).toBe(2);
  const text = [...io.lines, ...io.errors].join('\n');
  expect(text).toContain('--primary ftp://ops:***@legacy/');
  expect(text).not.toContain(SECRET);
});
