/**
 * The bindings' side of the access guard (src/auth/access-guard.ts): it judges only requests that run
 * an operation (the documents stay public: tooling fetches them before it has credentials), and its
 * refusals are a SOAP fault or the HTTP bindings' plain text.
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

/** /metrics on the main port with authentication on (src/app.ts): every request judged, refused as the HTTP bindings refuse. */
export function plainDoor(): BindingDoor {
  return { guarded: (_req, res) => plainRefusals(res, () => undefined) };
}

/** A refused request's log line names the operation only when it exists: the label values stay bounded. */
function httpRequest(req: BindingRequest, response: BindingResponse, service: Service): GuardedRequest {
  return plainRefusals(response, () => {
    const name = pathInfo(req).slice(1);
    annotate(response, { binding: req.method === 'GET' ? 'httpget' : 'httppost', service: service.name });
    if (service.operations.has(name)) annotate(response, { operation: name });
  });
}

/** Refusals in plain text, `annotate` naming the request on its log line. */
function plainRefusals(response: BindingResponse, annotateRequest: () => void): GuardedRequest {
  return {
    annotate: annotateRequest,
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
