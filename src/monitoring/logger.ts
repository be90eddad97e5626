/** The one logger of the process (pino, JSON lines), and its line per request; headers and bodies are never logged, these paths redacted in case. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import { inspect } from 'node:util';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Settings } from '../config';
import { isOpsRequest } from './request-summary';
import { summarize } from '../request-context/annotation';
import { activeTraceIds, requestTrace, tracingOn } from '../tracing/spans';

export type { Logger } from 'pino';

const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'password',
  '*.password',
];

/** destination: where the lines go (stdout by default; tests pass a stream to read them). */
export function createLogger(settings: Pick<Settings, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: settings.logLevel,
      base: { pid: process.pid, hostname: os.hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: tracingOn() ? activeTraceIds : undefined,
    },
    destination ?? stdout(),
  );
}

let stdoutDestination: DestinationStream | undefined;

/** One stdout stream per process, written once per turn of the event loop and at exit (docs/operations.md, "Logs"). */
function stdout(): DestinationStream {
  if (stdoutDestination === undefined) {
    const batch = new TurnBatch(pino.destination({ dest: 1, sync: true }));
    process.on('exit', () => batch.flush());
    stdoutDestination = batch;
  }
  return stdoutDestination;
}

/** Lines written during one turn of the event loop, handed to `sink` in one write when it ends. */
export class TurnBatch implements DestinationStream {
  private text = '';

  constructor(private readonly sink: DestinationStream) {}

  write(line: string): void {
    if (this.text === '') setImmediate(() => this.flush());
    this.text += line;
  }

  /** Writes what waits now (at the end of the turn, or at exit). */
  flush(): void {
    const text = this.text;
    this.text = '';
    if (text !== '') this.sink.write(text);
  }
}

/** Flat values only (undefined left out): an error line goes through the logger, for its err. */
export type LineWriter = (
  level: 'debug' | 'info',
  fields: Readonly<Record<string, string | number | undefined>>,
  msg: string,
) => void;

/**
 * The logger's own lines written by hand, for the request line, and the one place that reads pino's
 * internals (pino.symbols; a test compares the two): the hot path fails its benchmark through pino's calls.
 */
export function lineWriter(logger: Logger): LineWriter {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const time = internals[pino.symbols.timeSym] as () => string;
  // The same few keys on every line: each written as JSON once.
  const keyTexts = new Map<string, string>();
  const keyText = (key: string) => {
    let text = keyTexts.get(key);
    if (text === undefined) keyTexts.set(key, (text = `,${JSON.stringify(key)}:`));
    return text;
  };
  return (level, fields, msg) => {
    let line = `{"level":"${level}"${time()}${bindings}`;
    for (const key in fields) {
      const value = fields[key];
      if (value !== undefined)
        line += keyText(key) + (typeof value === 'number' ? String(value) : JSON.stringify(value));
    }
    stream.write(`${line},"msg":${JSON.stringify(msg)}}\n`);
  };
}

/**
 * One JSON log line per request, never with headers, query strings or bodies (credentials, personal
 * data); the request id is echoed in the answer so that a client's report can be matched to its line.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;
const MAX_LOGGED_PATH = 512;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const offered = req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function requestLogger(logger: Logger): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const write = lineWriter(logger);
  return (req, res, next) => {
    const reqId = requestId(req, res);
    const trace = requestTrace(res);
    // A service request's line is info, or error for the server's own failure; a probe's is debug.
    const probe = isOpsRequest(req);
    if (logger.isLevelEnabled(probe ? 'debug' : 'error')) {
      const start = Date.now();
      const path = pathOf(req);
      const done = () => {
        res.off('finish', done);
        res.off('close', done);
        writeLine(logger, write, probe, req, res, {
          reqId,
          trace_id: trace?.trace_id,
          span_id: trace?.span_id,
          method: req.method,
          path,
          durationMs: Date.now() - start,
        });
      };
      res.on('finish', done);
      res.on('close', done);
    }
    next();
  };
}

/** `facts`: what the line says beyond the annotation, in the line's order. */
function writeLine(
  logger: Logger,
  write: LineWriter,
  probe: boolean,
  req: IncomingMessage,
  res: ServerResponse,
  facts: { reqId: string; trace_id?: string; span_id?: string; method?: string; path: string; durationMs: number },
): void {
  const summary = summarize(res);
  const level = probe ? 'debug' : summary.outcome === 'server_fault' ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const { reqId, trace_id, span_id, method, path, durationMs } = facts;
  const { binding, service, operation, outcome, status, faultCode, errorCode } = summary;
  const line = {
    reqId,
    trace_id,
    span_id,
    method,
    path,
    binding,
    service,
    operation,
    outcome,
    status,
    durationMs,
    faultCode,
    errorCode,
  };
  const msg = res.writableEnded ? 'request completed' : 'request aborted';
  if (summary.error === undefined && level !== 'error') return write(level, line, msg);
  // pino leaves out the fields that are undefined, as the line writer does.
  const err =
    summary.error === undefined || summary.error instanceof Error ? summary.error : new Error(inspect(summary.error));
  logger[level]({ ...line, err }, msg);
}

/** The path as sent, without the query string (it may carry personal data). */
function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)).slice(0, MAX_LOGGED_PATH);
}
