/**
 * bin/serve is how every start command starts the server (docs/operations.md, "Memory"): package.json's
 * start script and the image's CMD run it, and the server it starts runs with node's flags and glibc's
 * allocator settings, unless the operator gave settings of their own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnPerTest } from './spawned-server';

const ROOT = path.resolve(__dirname, '..', '..');

/** The command line and environment of a running process, from /proc. */
function processOf(pid: number): { argv: string[]; env: Record<string, string> } {
  const fields = (file: string) => fs.readFileSync(`/proc/${pid}/${file}`, 'latin1').split('\0').filter(Boolean);
  const env = Object.fromEntries(
    fields('environ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  return { argv: fields('cmdline'), env };
}

describe('bin/serve', () => {
  const spawnServer = spawnPerTest();

  it('is what npm start and the container image run', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toMatch(/ && bin\/serve$/);
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^COPY bin \.\/bin$/m);
    expect(dockerfile).toMatch(/^CMD \["bin\/serve"\]$/m);
  });

  it("starts the server in its own process with node's flags and the allocator's settings", async () => {
    const server = spawnServer({ DATABASE_URL: 'sqlite::memory:' });
    await server.port();
    // The same process: the script gave its place to node, so signals reach the server.
    const { argv, env } = processOf(server.child.pid!);
    expect(argv[0]).toBe(process.execPath);
    expect(argv).toEqual(expect.arrayContaining(['--expose-gc', '--max-semi-space-size=8']));
    expect(argv.at(-1)).toBe('src/main.ts');
    expect(env).toMatchObject({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
  });

  it("keeps an operator's own allocator settings", async () => {
    const server = spawnServer({ DATABASE_URL: 'sqlite::memory:', MALLOC_ARENA_MAX: '4' });
    await server.port();
    expect(processOf(server.child.pid!).env).toMatchObject({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' });
  });
});
