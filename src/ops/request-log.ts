/**
 * One JSON log line per request, never with headers, query strings or bodies (credentials, personal
 * data); the request id is echoed in the answer so that a client's report can be matched to its line.
 */
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { lineWriter, type LineWriter, type Logger } from './logger';
import { isOpsRequest } from './request-summary';
import { summarize } from '../request-context/annotation';
import { requestTrace } from '../telemetry/spans';

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
        writeLine(logger, write, probe, req, res, { reqId, trace_id: trace?.trace_id, span_id: trace?.span_id, method: req.method, path, durationMs: Date.now() - start });
      };
      res.on('finish', done);
      res.on('close', done);
    }
    next();
  };
}

/** `facts`: what the line says beyond the annotation, in the line's order. */
function writeLine(logger: Logger, write: LineWriter, probe: boolean, req: IncomingMessage, res: ServerResponse, facts: { reqId: string; trace_id?: string; span_id?: string; method?: string; path: string; durationMs: number }): void {
  const summary = summarize(res);
  const level = probe ? 'debug' : summary.outcome === 'server_fault' ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const { reqId, trace_id, span_id, method, path, durationMs } = facts;
  const { binding, service, operation, outcome, status, faultCode, errorCode } = summary;
  const line = { reqId, trace_id, span_id, method, path, binding, service, operation, outcome, status, durationMs, faultCode, errorCode };
  const msg = res.writableEnded ? 'request completed' : 'request aborted';
  if (summary.error === undefined && level !== 'error') return write(level, line, msg);
  // pino leaves out the fields that are undefined, as the line writer does.
  const err = summary.error === undefined || summary.error instanceof Error ? summary.error : new Error(inspect(summary.error));
  logger[level]({ ...line, err }, msg);
}

/** The path as sent, without the query string (it may carry personal data). */
function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)).slice(0, MAX_LOGGED_PATH);
}
