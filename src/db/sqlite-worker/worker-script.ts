/**
 * Starts an SQLite worker thread running worker-main. From the compiled build that is the
 * worker-main.js beside this file; from TypeScript sources (the test suites under ts-jest) there is
 * no .js file, so the worker's own source (worker-main.ts, which imports only types of the project)
 * is transpiled with the TypeScript compiler (a development dependency) into a directory of the temporary directory named by a hash of the sources, in the same places
 * relative to each other: made once for each version of the sources and shared by every test process
 * (each file is written under a name of its own and renamed into place, so processes that make it at
 * once do not collide).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { threadId, Worker } from 'node:worker_threads';
import type { WorkerSettings } from './protocol';

/** The worker's sources, relative to src. */
const SOURCES = ['db/sqlite-worker/worker-main.ts'];

let transpiled: Promise<string> | undefined;

/**
 * A worker's young generation, in MB (docs/operations.md, "Memory"): left to itself V8 lets it grow far larger.
 * A worker's garbage is the rows of one part at a time, which this holds.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

export async function startWorker(settings: WorkerSettings): Promise<Worker> {
  const options = { workerData: settings, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } };
  const compiled = path.join(__dirname, 'worker-main.js');
  if (fs.existsSync(compiled)) return new Worker(compiled, options);
  transpiled ??= transpile(path.join(__dirname, '..', '..'));
  return new Worker(await transpiled, options);
}

/** Transpiles SOURCES from `root` into the temporary directory of their hash; the path of worker-main.js there. */
async function transpile(root: string): Promise<string> {
  const ts = await import('typescript');
  const texts = SOURCES.map((source) => fs.readFileSync(path.join(root, source), 'utf8'));
  const hash = createHash('sha256').update(ts.version).update(texts.join('\u0000')).digest('hex').slice(0, 16);
  const out = path.join(os.tmpdir(), `mobileapp-sqlite-worker-${hash}`);
  SOURCES.forEach((source, i) => {
    const target = path.join(out, source.replace(/\.ts$/, '.js'));
    if (fs.existsSync(target)) return;
    const js = ts.transpileModule(texts[i], { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.${threadId}`;
    fs.writeFileSync(partial, js);
    fs.renameSync(partial, target);
  });
  return path.join(out, 'db', 'sqlite-worker', 'worker-main.js');
}
