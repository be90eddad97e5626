/**
 * What a binding did with one request, for the log line and the metrics, kept on res.locals. An
 * operation is named only once it is known to exist, so made-up names create no metric series.
 */
import type { ServerResponse } from 'node:http';
import type { BindingResponse } from './exchange';

export type Binding = 'soap11' | 'soap12' | 'httpget' | 'httppost' | 'document' | 'other';

/** How a request ended; docs/operations.md ("Logs") says what each outcome means. */
export type RequestOutcome =
  | 'success'
  | 'business_error'
  | 'client_fault'
  | 'protocol_error'
  | 'server_fault'
  | 'not_found'
  | 'aborted'
  | 'unauthorized'
  | 'rate_limited'
  | 'busy'
  | 'forbidden';

interface RequestAnnotation {
  binding?: Binding;
  service?: string;
  operation?: string;
  outcome?: RequestOutcome;
  /** The SOAP fault code as written (soap:Client, soap:Sender, ...), or the business error Code. */
  faultCode?: string;
  /** The business error Code of a SOAP business fault (the fault code there is Client/Sender). */
  errorCode?: string;
  /** An unexpected failure: logged with its stack, never sent to the client. */
  error?: unknown;
}

interface Locals {
  asmx?: RequestAnnotation;
}

export function annotate(res: BindingResponse, annotation: RequestAnnotation): void {
  const locals = res.locals as Locals;
  Object.assign((locals.asmx ??= {}), annotation);
}

export function annotationOf(res: { locals?: unknown }): RequestAnnotation {
  return (res.locals as Locals | undefined)?.asmx ?? {};
}

/** Records an unexpected failure for the request's log line (error level, with the stack). */
export function annotateUnexpected(res: BindingResponse, error: unknown): void {
  annotate(res, { outcome: 'server_fault', error });
}

/** A finished request as the log, the metrics and the traces see it: the annotation, completed from the response. */
export function summarize(res: ServerResponse & { locals?: unknown }) {
  const note = annotationOf(res);
  return {
    binding: note.binding ?? 'other',
    service: note.service ?? 'none',
    operation: note.operation ?? 'unknown',
    outcome: outcomeOf(res, note.outcome),
    status: res.statusCode,
    faultCode: note.faultCode,
    errorCode: note.errorCode,
    error: note.error,
  };
}

/** A response cut before its end was aborted, whatever the binding had decided to answer. */
function outcomeOf(res: ServerResponse, noted: RequestOutcome | undefined): RequestOutcome {
  if (!res.writableEnded) return 'aborted';
  if (noted) return noted;
  if (res.statusCode === 404) return 'not_found';
  if (res.statusCode >= 500) return 'server_fault';
  return res.statusCode >= 400 ? 'protocol_error' : 'success';
}
