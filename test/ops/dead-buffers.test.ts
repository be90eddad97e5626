/**
 * Dead Buffers go back soon (src/process/dead-buffers.ts; docs/architecture.md, "Dead Buffers"): in a
 * real node process, answer-sized Buffers that die one after another never lie outside V8's heap much
 * beyond DEAD_BUFFER_BYTES when node has --expose-gc, as bin/serve gives it; without it, V8
 * lets them pile up (the control: were that no longer so, the collector could go).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { DEAD_BUFFER_BYTES } from '../../src/tunables';

const ROOT = path.resolve(__dirname, '..', '..');
const MB = 1024 * 1024;

/** The most bytes that lay outside the heap in the child, run with these node flags. */
function mostOutside(flags: string[]): Promise<number> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [...flags, path.join(ROOT, 'test', 'ops', 'launch-ts.js'), 'test/ops/dead-buffers-child.ts'],
      { cwd: ROOT },
      (error, stdout) => (error === null ? resolve(Number(stdout.trim())) : reject(new Error(error.message))),
    ),
  );
}

describe('dead Buffers', () => {
  it('with --expose-gc, at most about DEAD_BUFFER_BYTES of dead Buffers wait beside the live ones', async () => {
    // One 4 MB answer is live at a time; a check every 100 ms may see up to two more arrive first.
    expect(await mostOutside(['--expose-gc'])).toBeLessThan(DEAD_BUFFER_BYTES + 12 * MB);
  });

  it('without it, V8 lets far more pile up', async () => {
    expect(await mostOutside([])).toBeGreaterThan(DEAD_BUFFER_BYTES + 24 * MB);
  });
});
