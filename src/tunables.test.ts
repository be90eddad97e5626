import fs from 'node:fs';
import path from 'node:path';

/** Every .ts file under `dir`, tests left out. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('src/tunables.ts', () => {
  it('holds every constant named for the size of a batch, chunk, slice or flush', () => {
    // A time (a name ending in _MS) is no size: SHUTDOWN_FLUSH_MS bounds a wait.
    const sizing =
      /^(?:export )?const (\w*(?:BATCH|CHUNK|SLICE|FLUSH|PER_TURN|PER_STATEMENT)\w*(?<!_MS)) = [\d_ *]+;/gm;
    const elsewhere = sources(__dirname)
      .filter((file) => file !== path.join(__dirname, 'tunables.ts'))
      .flatMap((file) =>
        [...fs.readFileSync(file, 'utf8').matchAll(sizing)].map(
          (match) => `${path.relative(__dirname, file)}: ${match[1]}`,
        ),
      );
    // Each belongs in src/tunables.ts, named for what it bounds, with one line saying why it is that size.
    expect(elsewhere).toEqual([]);
  });
});
