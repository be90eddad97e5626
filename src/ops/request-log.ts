/**
 * One JSON log line per request (pino-http): request id, method, path, binding, service, operation,
 * outcome, status, fault code and duration. Never headers, query strings or bodies: they may carry
 * credentials, personal data or file contents. An unexpected failure noted by a binding is logged
 * on the same line at error level with its stack; the probes and /metrics log at debug level only.
 *
 * The request id is the client's X-Request-Id when it is a sane token, else a new UUID; either way
 * it is echoed in the response's X-Request-Id, so a client report can be matched to the log line.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pinoHttp, { type HttpLogger } from 'pino-http';
import type { Logger } from './logger';
import { isOpsRequest, summarize } from './request-summary';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;
const MAX_LOGGED_PATH = 512;

export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const offered = req.headers['x-request-id'];
  const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function requestLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: requestId,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'reqId', responseTime: 'durationMs' },
    customLogLevel: (req, res) => {
      if (isOpsRequest(req)) return 'debug';
      return summarize(res).outcome === 'server_fault' ? 'error' : 'info';
    },
    customSuccessObject: (req, res, fields) => lineOf(req, res, fields.durationMs),
    customErrorObject: (req, res, _error, fields) => lineOf(req, res, fields.durationMs),
    customSuccessMessage: (_req, res) => (res.writableEnded ? 'request completed' : 'request aborted'),
    // pino-http calls every 5xx an error; SOAP answers each fault with 500, so the message stays neutral.
    customErrorMessage: (_req, res) => (res.writableEnded ? 'request completed' : 'request aborted'),
  });
}

function lineOf(req: IncomingMessage, res: ServerResponse, durationMs: unknown): Record<string, unknown> {
  const summary = summarize(res);
  const line: Record<string, unknown> = {
    method: req.method,
    path: pathOf(req),
    binding: summary.binding,
    service: summary.service,
    operation: summary.operation,
    outcome: summary.outcome,
    status: summary.status,
    durationMs,
  };
  if (summary.faultCode) line.faultCode = summary.faultCode;
  if (summary.errorCode) line.errorCode = summary.errorCode;
  if (summary.error !== undefined) line.err = summary.error instanceof Error ? summary.error : new Error(String(summary.error));
  return line;
}

/** The path as sent, without the query string (it may carry personal data). */
function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return url.split('?')[0].slice(0, MAX_LOGGED_PATH);
}
