/**
 * Starts an SQLite worker thread running worker-main. From the compiled build that is the
 * worker-main.js beside this file; from TypeScript sources (the test suites under ts-jest) there is
 * no .js file, so the one self-contained source file is transpiled once with the TypeScript compiler
 * (a development dependency) and evaluated.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerSettings } from './protocol';

let transpiled: string | undefined;

export async function startWorker(settings: WorkerSettings): Promise<Worker> {
  const compiled = path.join(__dirname, 'worker-main.js');
  if (fs.existsSync(compiled)) return new Worker(compiled, { workerData: settings });
  transpiled ??= await transpile(path.join(__dirname, 'worker-main.ts'));
  return new Worker(transpiled, { eval: true, workerData: settings });
}

async function transpile(file: string): Promise<string> {
  const ts = await import('typescript');
  const source = fs.readFileSync(file, 'utf8');
  return ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
}
