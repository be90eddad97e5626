/**
 * Starts an SQLite worker thread running worker-main: the compiled worker-main.js beside this file,
 * or under ts-jest (no .js) worker-main.ts transpiled into a temporary directory named by its hash,
 * shared by every test process (written under a name of its own, then renamed into place).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { threadId, Worker } from 'node:worker_threads';
import type { WorkerSettings } from './protocol';

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
  transpiled ??= transpile(path.join(__dirname, 'worker-main.ts'));
  return new Worker(await transpiled, options);
}

/** worker-main.ts transpiled into the temporary directory of its hash; the path of the .js there. */
async function transpile(source: string): Promise<string> {
  const ts = await import('typescript');
  const text = fs.readFileSync(source, 'utf8');
  const hash = createHash('sha256').update(ts.version).update(text).digest('hex').slice(0, 16);
  const target = path.join(os.tmpdir(), `mobileapp-sqlite-worker-${hash}`, 'worker-main.js');
  if (fs.existsSync(target)) return target;
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.${threadId}`;
  fs.writeFileSync(partial, js);
  fs.renameSync(partial, target);
  return target;
}
