/**
 * What a request is (its classification, src/classifier) and how a binding answered it, for the log
 * line, the metrics and the spans, kept on res.locals. The classifier names only declared operations,
 * so made-up names create no metric series.
 */
import type { ServerResponse } from 'node:http';
import type { RequestKind } from '../classifier';
import type { BindingResponse } from './exchange';

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
  kind?: RequestKind;
}

/** The dispatcher's classification of the request: what every layer after it reads, and completes (a SOAP call's operation). */
export function setRequestKind(res: BindingResponse, kind: RequestKind): void {
  (res.locals as Locals).kind = kind;
}

export function requestKindOf(res: { locals?: unknown }): RequestKind | undefined {
  return (res.locals as Locals | undefined)?.kind;
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
  const kind = requestKindOf(res);
  return {
    binding: kind?.binding ?? 'other',
    service: kind?.service?.name ?? 'none',
    operation: kind?.operation ?? 'unknown',
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
