/**
 * Dead weight goes back soon (src/process/dead-buffers.ts; docs/architecture.md, "Dead Buffers"): in a
 * real node process with --expose-gc, as bin/serve gives it, answer-sized Buffers that die one after
 * another never lie outside V8's heap much beyond DEAD_BUFFER_BYTES, and rows that die after young
 * collections never stay in use in the heap much beyond DEAD_HEAP_BYTES; without it, V8 lets both
 * pile up (the controls: were that no longer so, the collector could go).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { DEAD_BUFFER_BYTES, DEAD_HEAP_BYTES } from '../../src/tunables';

const ROOT = path.resolve(__dirname, '..', '..');
const MB = 1024 * 1024;

/** The most bytes of dead weight the child saw (`buffers` outside the heap, `heap` in it), run with these node flags. */
function mostDead(kind: 'buffers' | 'heap', flags: string[]): Promise<number> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [...flags, path.join(ROOT, 'test', 'ops', 'launch-ts.js'), 'test/ops/dead-buffers-child.ts', kind],
      { cwd: ROOT },
      (error, stdout) => (error === null ? resolve(Number(stdout.trim())) : reject(new Error(error.message))),
    ),
  );
}

describe('dead Buffers', () => {
  it('with --expose-gc, at most about DEAD_BUFFER_BYTES of dead Buffers wait beside the live ones', async () => {
    // One 4 MB answer is live at a time; a check every 100 ms may see up to two more arrive first.
    expect(await mostDead('buffers', ['--expose-gc'])).toBeLessThan(DEAD_BUFFER_BYTES + 12 * MB);
  });

  it('without it, V8 lets far more pile up', async () => {
    expect(await mostDead('buffers', [])).toBeGreaterThan(DEAD_BUFFER_BYTES + 24 * MB);
  });
});

describe('dead rows in the heap', () => {
  const SERVE_FLAGS = ['--expose-gc', '--max-semi-space-size=8'];

  it('with --expose-gc, at most about DEAD_HEAP_BYTES of them stay in use beside the live heap', async () => {
    // Besides: the rows still on their way (about 8 MB) and what arrives between two checks.
    expect(await mostDead('heap', SERVE_FLAGS)).toBeLessThan(DEAD_HEAP_BYTES + 40 * MB);
  });

  it('without it, V8 lets them grow to a few times the live heap', async () => {
    expect(await mostDead('heap', SERVE_FLAGS.slice(1))).toBeGreaterThan(DEAD_HEAP_BYTES + 100 * MB);
  });
});
