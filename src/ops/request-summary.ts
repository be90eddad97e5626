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

/**
 * The operational endpoints (probes.ts, metrics.ts), at the root: the one list of their paths. A path
 * names one in any letter case, as the router matches paths; a query aside.
 */
export const OPS_PATHS = ['/health', '/ready', '/metrics'] as const;
export type OpsPath = (typeof OPS_PATHS)[number];

const LONGEST_OPS_PATH = Math.max(...OPS_PATHS.map((path) => path.length));

/** The operational endpoint a URL's path names, if any (the probes answer GET and HEAD to it). */
export function opsPathOf(url: string): OpsPath | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.length > LONGEST_OPS_PATH) return undefined;
  const lower = path.toLowerCase();
  return OPS_PATHS.find((ops) => ops === lower);
}

/** A request to an operational endpoint: not counted among the service's requests, logged at debug. */
export function isOpsRequest(req: IncomingMessage): boolean {
  return opsPathOf(req.url ?? '') !== undefined;
}
