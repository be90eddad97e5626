/**
 * One finished request as the log line and the metrics see it: the binding's annotation
 * (src/request-context/annotation.ts) completed from the response where a binding did not say.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { annotationOf, type Binding, type RequestOutcome } from '../request-context/annotation';

export interface RequestSummary {
  binding: Binding;
  /** Service name, 'none' outside the two services. */
  service: string;
  /** Operation (or document kind) name, 'unknown' when none was recognised. */
  operation: string;
  outcome: RequestOutcome;
  status: number;
  faultCode?: string;
  errorCode?: string;
  error?: unknown;
}

export function summarize(res: ServerResponse & { locals?: unknown }): RequestSummary {
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

/** The operational endpoints (probes.ts, metrics.ts), not counted among the service's requests. */
const OPS_PATHS: readonly string[] = ['/health', '/ready', '/metrics'];

export function isOpsRequest(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?')[0];
  return OPS_PATHS.includes(path);
}
