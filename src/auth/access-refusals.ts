/**
 * The answers of the access guard, in the shape each binding's client expects (docs/operations.md,
 * "Authentication", "Rate limiting"):
 * - SOAP: a Client/Sender fault in the request's SOAP version, with status 401 or 429;
 * - HTTP GET/POST: text/plain, the message and CRLF (docs/contract.md, like every HTTP binding error).
 * A 401 carries the Basic challenge whenever Basic credentials are accepted; a 429 carries Retry-After.
 */
import type { Response } from 'express';
import type { Settings } from '../config';
import { FAULT_TEXT } from '../protocol-texts';
import { UNEXPECTED_FAULT, type SoapVersion } from '../asmx/faults';
import { sendPlainError, sendPlainServerError } from '../asmx/plain-error';
import { sendFault } from '../asmx/soap/respond';
import { annotate, annotateUnexpected } from '../asmx/request-annotation';

/** Which binding a guarded request is for: SOAP (with its version) or the HTTP GET/POST bindings. */
export type GuardedBinding = { kind: 'soap'; version: SoapVersion } | { kind: 'http' };

export function refuseUnauthorized(res: Response, binding: GuardedBinding, settings: Pick<Settings, 'authMode' | 'authRealm'>): void {
  annotate(res, { outcome: 'unauthorized' });
  if (settings.authMode === 'basic' || settings.authMode === 'any') {
    res.setHeader('WWW-Authenticate', `Basic realm="${settings.authRealm}", charset="UTF-8"`);
  }
  refuse(res, binding, 401, FAULT_TEXT.accessDenied());
}

export function refuseRateLimited(res: Response, binding: GuardedBinding, retryAfterSeconds: number): void {
  annotate(res, { outcome: 'rate_limited' });
  res.setHeader('Retry-After', String(retryAfterSeconds));
  refuse(res, binding, 429, FAULT_TEXT.tooManyRequests(retryAfterSeconds));
}

/** The credential check itself failed (database unreachable): the server's fault, without internals. */
export function refuseUnexpected(res: Response, binding: GuardedBinding, error: unknown): void {
  annotateUnexpected(res, error);
  if (binding.kind === 'soap') sendFault(res, binding.version, UNEXPECTED_FAULT);
  else sendPlainServerError(res);
}

function refuse(res: Response, binding: GuardedBinding, status: 401 | 429, message: string): void {
  if (binding.kind === 'soap') sendFault(res, binding.version, { kind: 'client', message }, status);
  else sendPlainError(res, status, message);
}
