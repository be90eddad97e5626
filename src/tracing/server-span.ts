/**
 * The HTTP server span of each request, opened here rather than by the http instrumentation, which
 * binds every request's emitters to the trace, sampled or not (docs/performance.md, "Traces").
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { keepRequestSpan, tracer, tracingOn } from './spans';

/** `untraced`: requests left out of the traces (the probes). */
export function traceRequests(listener: RequestListener, untraced: (req: IncomingMessage) => boolean): RequestListener {
  if (!tracingOn()) return listener;
  // W3C traceparent (or whatever OTEL_PROPAGATORS names): the caller's trace goes on. Most requests
  // carry none of the propagators' headers, and skip the extraction.
  const propagated = propagation.fields().map((name) => name.toLowerCase());
  return (req, res) => {
    if (untraced(req)) return listener(req, res);
    const parent = propagated.some((name) => req.headers[name] !== undefined)
      ? propagation.extract(ROOT_CONTEXT, req.headers)
      : ROOT_CONTEXT;
    const method = req.method ?? 'GET';
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER }, parent);
    keepRequestSpan(res, span.spanContext());
    // A request the sampler dropped records nothing below it either: it enters no context, and its
    // log line finds the trace on its response.
    if (!span.isRecording()) return listener(req, res);
    span.setAttributes(requestAttributes(req, method));
    res.once('close', () => endServerSpan(span, res));
    context.with(trace.setSpan(parent, span), () => listener(req, res));
  };
}

function requestAttributes(req: IncomingMessage, method: string): Record<string, string | number | undefined> {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const [host, port] = hostAndPort(req.headers.host);
  return {
    'http.request.method': method,
    'url.scheme': 'http',
    'url.path': query === -1 ? url : url.slice(0, query),
    'url.query': query === -1 ? undefined : redacted(url.slice(query + 1)),
    'server.address': host,
    'server.port': port,
    'client.address': req.socket.remoteAddress,
    'network.peer.address': req.socket.remoteAddress,
    'network.peer.port': req.socket.remotePort,
    'network.protocol.version': req.httpVersion,
    'user_agent.original': req.headers['user-agent'],
  };
}

/** The query's names with every value REDACTED: HTTP GET carries every parameter there, PageToken included. */
function redacted(query: string): string {
  return query.replace(/=[^&]*/g, '=REDACTED');
}

function hostAndPort(host: string | undefined): [string | undefined, number | undefined] {
  if (host === undefined) return [undefined, undefined];
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  return match === null ? [undefined, undefined] : [match[1], match[2] === undefined ? undefined : Number(match[2])];
}

/** The conventions' error status: a server span errs on a 5xx, or when the answer was cut. */
function endServerSpan(span: Span, res: ServerResponse): void {
  span.setAttribute('http.response.status_code', res.statusCode);
  if (res.statusCode >= 500 || !res.writableEnded) {
    span.setAttribute('error.type', res.writableEnded ? String(res.statusCode) : 'aborted');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
