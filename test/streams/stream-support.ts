/**
 * Helpers of the streamed-list suites: the real app listening on a port with its log lines captured,
 * and raw HTTP GETs that keep the bytes exactly as sent (no decompression), or that hang up after the
 * first bytes like a client that goes away.
 */
import http from 'node:http';
import { createApp } from '../../src/app';
import { loadSettings } from '../../src/config';
import type { Engine, EngineKind } from '../../src/db/engine';
import { freshEngine } from '../support/engines';
import { listen } from '../support/listen';
import { captureLog, type LogCapture } from '../ops/ops-support';

export interface StreamApp {
  engine: Engine;
  baseUrl: string;
  port: number;
  log: LogCapture;
  stop(): Promise<void>;
}

/**
 * The answer cache is off unless `env` turns it on: an answer it keeps is sent again whole, and these
 * suites watch answers being streamed.
 */
export async function startStreamApp(
  kind: EngineKind,
  prepare: (engine: Engine) => Promise<void>,
  env: Record<string, string> = { ANSWER_CACHE_MB: '0' },
): Promise<StreamApp> {
  const engine = await freshEngine(kind);
  try {
    await prepare(engine);
    const log = captureLog();
    const app = createApp({
      settings: loadSettings({ LOG_LEVEL: 'info', ...env }),
      engine,
      logDestination: log.destination,
    });
    await app.ready;
    const server = await listen(app);
    return {
      engine,
      baseUrl: server.baseUrl,
      port: server.port,
      log,
      stop: async () => {
        await server.stop();
        await engine.close();
      },
    };
  } catch (err) {
    await engine.close();
    throw err;
  }
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function getRaw(
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders = {},
  method = 'GET',
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A GET read as it arrives: the text received so far, the first chunk, and the whole body. */
export interface PartsAnswer {
  received(): string;
  first: Promise<string>;
  whole: Promise<string>;
}

export function getInParts(port: number, path: string): PartsAnswer {
  const chunks: Buffer[] = [];
  let firstChunk!: (text: string) => void;
  const first = new Promise<string>((resolve) => (firstChunk = resolve));
  const whole = new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (chunks.length === 1) firstChunk(chunk.toString('utf8'));
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  return { received: () => Buffer.concat(chunks).toString('utf8'), first, whole };
}

/** Sends a GET, reads until `bytes` have arrived, then destroys the socket; resolves with what it read. */
export function hangUpAfter(
  port: number,
  path: string,
  bytes: number,
  requestId: string,
  headers: http.OutgoingHttpHeaders = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'GET',
        path,
        headers: { ...headers, 'X-Request-Id': requestId },
        agent: false,
      },
      (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= bytes) {
            req.destroy();
            resolve(received);
          }
        });
        res.on('end', () => reject(new Error(`the whole answer (${received} bytes) arrived before the hang-up`)));
      },
    );
    req.on('error', () => undefined);
    req.end();
  });
}

/** Resolves once `check` holds, polling every 10 ms; rejects after `withinMs`. */
export async function eventually(check: () => boolean, withinMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > withinMs) throw new Error(`${what} did not happen within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** Database connections or worker threads still lent out (0 when every query has let go). */
export function busyConnections(engine: Engine): number {
  if (engine.sqliteWorkers) return engine.sqliteWorkers.stats().busy;
  const pool = engine.pool!;
  return pool.totalCount - pool.idleCount;
}
