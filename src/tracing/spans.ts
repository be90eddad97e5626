/** The server's own spans (SQLite queries) and trace ids; with tracing off each entry point is one check of a flag. */
import type { ServerResponse } from 'node:http';
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';

/** The SDK's tracer once it has started; before, the API's proxy, which would look it up on every span. */
export let tracer: Tracer = trace.getTracer('mobileapp-asmx');

let on = false;

/** Called once the SDK has started (sdk.ts). */
export function enableSpans(): void {
  tracer = trace.getTracer('mobileapp-asmx');
  on = true;
}

export function tracingOn(): boolean {
  return on;
}

/** Runs one SQLite statement under a client span, inside a recorded trace only (as the pg instrumentation is set). */
export function traceQuery<T>(sql: string, run: () => Promise<T>): Promise<T> {
  if (!on || trace.getSpan(context.active())?.isRecording() !== true) return run();
  const verb = sql.trimStart().split(/\s/, 1)[0].toUpperCase();
  const span = tracer.startSpan(`sqlite.query:${verb}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'sqlite', 'db.operation.name': verb, 'db.query.text': sql },
  });
  return run().then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      span.setAttribute('error.type', (error as { code?: string }).code ?? (error as Error).name ?? 'Error');
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      span.end();
      throw error;
    },
  );
}

export interface TraceIds {
  trace_id: string;
  span_id: string;
}

const REQUEST_SPAN = Symbol('request span');

type WithRequestSpan = ServerResponse & { [REQUEST_SPAN]?: SpanContext };

/** Called by the request's listener (server-span.ts) with its HTTP server span, sampled or not. */
export function keepRequestSpan(res: ServerResponse, span: SpanContext): void {
  (res as WithRequestSpan)[REQUEST_SPAN] = span;
}

/** The request's trace and span for its log line; a sampled request's answer carries them in `traceresponse`. */
export function requestTrace(res: ServerResponse): TraceIds | undefined {
  const span = (res as WithRequestSpan)[REQUEST_SPAN];
  if (span === undefined || !trace.isSpanContextValid(span)) return undefined;
  if (span.traceFlags & TraceFlags.SAMPLED) res.setHeader('traceresponse', `00-${span.traceId}-${span.spanId}-01`);
  return { trace_id: span.traceId, span_id: span.spanId };
}

/** The active span's ids for a log line, unless it names its trace already (the request line). */
export function activeTraceIds(line: object): Partial<TraceIds> {
  if ('trace_id' in line) return {};
  const span = activeSpanContext();
  return span === undefined ? {} : { trace_id: span.traceId, span_id: span.spanId };
}

function activeSpanContext(): SpanContext | undefined {
  const span = trace.getSpan(context.active())?.spanContext();
  return span !== undefined && trace.isSpanContextValid(span) ? span : undefined;
}
