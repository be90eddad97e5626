/**
 * The bindings' side of the access guard (src/auth/access-guard.ts, docs/operations.md,
 * "Authentication", "Rate limiting"): which requests the guard judges, and its refusals in the shape
 * each binding's client expects.
 * - The guard judges only requests that run an operation: POST on the .asmx (SOAP) and GET/POST on
 *   <path>/<op> (HTTP). The WSDL, disco and help documents stay public (they hold no data, and tooling
 *   fetches them before it has credentials), as do the 405 answers to other verbs.
 * - SOAP: a Client/Sender fault in the request's SOAP version, with the guard's status (401, 429),
 *   or a Server/Receiver fault for a 503;
 *   a request without a SOAP media type is answered as SOAP 1.1, as the SOAP binding answers it (415).
 * - HTTP GET/POST: text/plain, the message and CRLF (docs/contract.md, like every HTTP binding error).
 */
import type { BindingRequest, BindingResponse } from '../request-context/exchange';
import type { BindingDoor, GuardedRequest } from '../auth/access-guard';
import type { Service } from '../services/types';
import { annotate, annotateUnexpected } from '../request-context/annotation';
import { UNEXPECTED_FAULT, type SoapVersion } from './faults';
import { sendPlainError, sendPlainServerError } from './plain-error';
import { pathInfo } from './service-endpoint';
import { parseSoapContentType, unquote } from './soap/content-type';
import { sendFault } from './soap/respond';

/** The guard's view of one service's four bindings. */
export function bindingDoor(service: Service): BindingDoor {
  return {
    guarded(req, res) {
      const rest = pathInfo(req);
      if (rest !== '') return req.method === 'GET' || req.method === 'POST' ? httpRequest(req, res, service) : undefined;
      if (req.method !== 'POST') return undefined;
      return soapRequest(req, res, service, parseSoapContentType(req.headers['content-type'])?.version ?? '1.1');
    },
  };
}

/**
 * The log line and metrics of a request the guard answers name the binding, and the operation when
 * the request names one that exists (the label values stay bounded, see src/request-context/annotation.ts).
 */
function httpRequest(req: BindingRequest, response: BindingResponse, service: Service): GuardedRequest {
  return {
    annotate() {
      const name = pathInfo(req).slice(1);
      annotate(response, { binding: req.method === 'GET' ? 'httpget' : 'httppost', service: service.name });
      if (service.operations.has(name)) annotate(response, { operation: name });
    },
    refuse: (status, message) => sendPlainError(response, status, message),
    fail(error) {
      annotateUnexpected(response, error);
      sendPlainServerError(response);
    },
  };
}

function soapRequest(req: BindingRequest, response: BindingResponse, service: Service, version: SoapVersion): GuardedRequest {
  return {
    annotate() {
      annotate(response, { binding: version === '1.2' ? 'soap12' : 'soap11', service: service.name });
      const action = soapAction(req, version);
      const name = action?.startsWith(service.namespace) ? action.slice(service.namespace.length) : undefined;
      if (name && service.operations.has(name)) annotate(response, { operation: name });
    },
    // The client's fault, except a 503: the server could not check the credentials just then.
    refuse: (status, message) => sendFault(response, version, { kind: status === 503 ? 'server' : 'client', message }, status),
    fail(error) {
      annotateUnexpected(response, error);
      sendFault(response, version, UNEXPECTED_FAULT);
    },
  };
}

function soapAction(req: BindingRequest, version: SoapVersion): string | undefined {
  if (version === '1.2') return parseSoapContentType(req.headers['content-type'])?.action;
  const header = req.headers.soapaction;
  return typeof header === 'string' ? unquote(header) : undefined;
}
