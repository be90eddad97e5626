/**
 * The bindings' side of the access guard (src/auth/access-guard.ts): its refusals are a SOAP fault in
 * the request's version or the HTTP bindings' plain text. The dispatcher (src/app.ts) asks the guard
 * only about requests that run an operation: the documents stay public (tooling fetches them before it
 * has credentials).
 */
import type { BindingResponse } from '../request-context/exchange';
import type { GuardedRequest } from '../auth/access-guard';
import { annotateUnexpected } from '../request-context/annotation';
import { UNEXPECTED_FAULT, type SoapVersion } from './faults';
import { sendPlainError, sendPlainServerError } from './plain-error';
import { sendFault } from './soap/respond';

/** Refusals in plain text: the HTTP bindings', and /metrics on the main port with authentication on (src/app.ts). */
export function plainRefusals(response: BindingResponse): GuardedRequest {
  return {
    refuse: (status, message) => sendPlainError(response, status, message),
    fail(error) {
      annotateUnexpected(response, error);
      sendPlainServerError(response);
    },
  };
}

/** Refusals as SOAP faults: the client's fault, except a 503 (the server could not check the credentials just then). */
export function soapRefusals(response: BindingResponse, version: SoapVersion): GuardedRequest {
  return {
    refuse: (status, message) =>
      sendFault(response, version, { kind: status === 503 ? 'server' : 'client', message }, status),
    fail(error) {
      annotateUnexpected(response, error);
      sendFault(response, version, UNEXPECTED_FAULT);
    },
  };
}
