/** One span per operation call, naming the operation, binding, contract and outcome, never a parameter value. */
import type { ServerResponse } from 'node:http';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { requestKindOf, summarize } from '../request-context/annotation';
import { whenClosed } from '../request-context/exchange';
import { tracer, tracingOn } from './spans';

/** Runs an operation under its span, which ends with the answer; the binding has annotated the response already. */
export function traceOperation<T>(
  res: ServerResponse & { locals: unknown },
  service: { name: string; contract: string },
  operation: string,
  run: () => Promise<T>,
): Promise<T> {
  // Under a span that is not recorded (not sampled) this one would not be either: no work for it.
  if (!tracingOn() || trace.getSpan(context.active())?.isRecording() !== true) return run();
  const binding = requestKindOf(res)?.binding;
  const method = `${service.name}/${operation}`;
  const span = tracer.startSpan(method, {
    kind: SpanKind.INTERNAL,
    attributes: {
      // `soap` is the conventions' own; ASMX's HTTP GET and POST bindings have no registered value.
      'rpc.system.name': binding === 'soap11' || binding === 'soap12' ? 'soap' : 'asmx_http',
      'rpc.method': method,
      'asmx.binding': binding,
      'asmx.contract': service.contract,
    },
  });
  whenClosed(res, () => endOperationSpan(span, res));
  return context.with(trace.setSpan(context.active(), span), run);
}

function endOperationSpan(span: Span, res: ServerResponse & { locals: unknown }): void {
  const summary = summarize(res);
  span.setAttribute('asmx.outcome', summary.outcome);
  if (summary.outcome !== 'success') {
    span.setAttribute('error.type', summary.errorCode ?? summary.faultCode ?? summary.outcome);
    span.setStatus({ code: SpanStatusCode.ERROR, message: summary.outcome });
  }
  span.end();
}
