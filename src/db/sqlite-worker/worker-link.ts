/**
 * One SQLite worker thread as the main thread sees it. When the thread dies every request still
 * waiting on it is rejected at once (WorkerGoneError); the pool then puts a new worker in its place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { threadId, Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { RowBatch, WorkerFailure, WorkerHello, WorkerRequest, WorkerResponse, WorkerSettings } from './protocol';
import { InFlight } from '../../in-flight';

/** A worker's answer with its rows as objects (an empty list for a statement without rows). */
export type Answer = Omit<Extract<WorkerResponse, { ok: true }>, 'rows'> & { rows: Record<string, unknown>[] };
/** A request as the caller writes it; the link adds the id. */
export type LinkRequest = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/** The worker thread ended while a request was under way on it (or before it was sent). */
export class WorkerGoneError extends Error {
  constructor(reason: string) {
    super(`The SQLite worker thread stopped: ${reason}`);
    this.name = 'WorkerGoneError';
  }
}

interface Waiter {
  resolve(answer: Answer): void;
  reject(err: Error): void;
}

export class WorkerLink {
  /** The requests sent and not yet answered, by their id (an InFlight, not a Map: docs/architecture.md, "Garbage on the request path"). */
  private readonly waiting = new InFlight<Waiter>();
  private gone: string | undefined;
  private stopping = false;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    private readonly onDeath: (link: WorkerLink) => void,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: WorkerResponse) => this.settle(message));
    // A worker's uncaught throw arrives as it was thrown, which need not be an Error.
    worker.on('error', (err: unknown) => this.die(err instanceof Error ? err.message : String(err)));
    worker.on('exit', (code) => this.die(`exit code ${code}`));
  }

  /** Starts a worker and waits until its connection is open (rejects when it cannot open it). */
  static async start(settings: WorkerSettings, onDeath: (link: WorkerLink) => void): Promise<WorkerLink> {
    const worker = await startWorker(settings);
    const hello = await firstMessage(worker);
    if (!hello.ready) {
      await worker.terminate();
      throw toError(hello.error);
    }
    return new WorkerLink(worker, onDeath);
  }

  get alive(): boolean {
    return this.gone === undefined;
  }

  request(request: LinkRequest): Promise<Answer> {
    if (this.gone !== undefined) return Promise.reject(new WorkerGoneError(this.gone));
    return new Promise<Answer>((resolve, reject) => {
      const id = this.waiting.add({ resolve, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  /** Closes the connection (checkpointing the WAL) and lets the thread end; terminates it if it will not. */
  async stop(timeoutMs = 5000): Promise<void> {
    if (this.gone !== undefined) return;
    this.stopping = true;
    const timer = setTimeout(() => void this.worker.terminate(), timeoutMs);
    try {
      await this.request({ op: 'stop' }).catch(() => undefined);
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the thread now, whatever it is doing. */
  async terminate(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }

  private settle(message: WorkerResponse): void {
    const waiter = this.waiting.take(message.id);
    if (!waiter) return;
    if (message.ok)
      waiter.resolve({
        id: message.id,
        ok: true,
        rows: message.rows ? rowObjects(message.rows) : [],
        numAffectedRows: message.numAffectedRows,
        insertId: message.insertId,
        done: message.done,
      });
    else waiter.reject(toError(message.error));
  }

  private die(reason: string): void {
    if (this.gone !== undefined) return;
    this.gone = reason;
    const error = new WorkerGoneError(reason);
    for (const waiter of this.waiting.takeAll()) waiter.reject(error);
    if (!this.stopping) this.onDeath(this);
  }
}

/** The worker's hello, or its failure to start. */
function firstMessage(worker: Worker): Promise<WorkerHello> {
  return new Promise<WorkerHello>((resolve, reject) => {
    const onMessage = (hello: WorkerHello) => settle(() => resolve(hello));
    const onError = (err: Error) => settle(() => reject(err));
    const onExit = (code: number) => settle(() => reject(new WorkerGoneError(`exit code ${code} before it was ready`)));
    const settle = (then: () => void) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      then();
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** The error as better-sqlite3 would have thrown it in-process: a SqliteError with its code. */
function toError(failure: WorkerFailure): Error {
  if (failure.name === 'SqliteError' && failure.code !== undefined)
    return new Database.SqliteError(failure.message, failure.code);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/**
 * The rows as better-sqlite3 gives them in-process: an object per row, its columns in order (a name
 * that comes twice keeps the last value).
 */
function rowObjects(batch: RowBatch): Record<string, unknown>[] {
  const { columns, values: arrays } = batch;
  const rows = new Array<Record<string, unknown>>(arrays.length);
  for (let r = 0; r < arrays.length; r++) {
    const values = arrays[r];
    const row: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) row[columns[c]] = asBuffer(values[c]);
    rows[r] = row;
  }
  return rows;
}

/** Blobs arrive as Uint8Array (structured clone drops the Buffer prototype); the schema's binary columns are Buffers. */
function asBuffer(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

let transpiled: Promise<string> | undefined;

/**
 * A worker's young generation, in MB (docs/operations.md, "Memory"): left to itself V8 lets it grow far larger.
 * A worker's garbage is the rows of one part at a time, which this holds.
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * Starts a worker thread running worker-main.js beside this file, or under ts-jest (no .js) worker-main.ts
 * transpiled into a temporary directory named by its hash, shared by every test process.
 */
async function startWorker(settings: WorkerSettings): Promise<Worker> {
  const options = { workerData: settings, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } };
  const compiled = path.join(__dirname, 'worker-main.js');
  if (fs.existsSync(compiled)) return new Worker(compiled, options);
  transpiled ??= transpile(path.join(__dirname, 'worker-main.ts'));
  return new Worker(await transpiled, options);
}

/** worker-main.ts transpiled into the temporary directory of its hash (written under a name of its own, then renamed into place). */
async function transpile(source: string): Promise<string> {
  const ts = await import('typescript');
  const text = fs.readFileSync(source, 'utf8');
  const hash = createHash('sha256').update(ts.version).update(text).digest('hex').slice(0, 16);
  const target = path.join(os.tmpdir(), `mobileapp-sqlite-worker-${hash}`, 'worker-main.js');
  if (fs.existsSync(target)) return target;
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.${threadId}`;
  fs.writeFileSync(partial, js);
  fs.renameSync(partial, target);
  return target;
}
