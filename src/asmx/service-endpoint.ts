/** Everything under a service's .asmx but SOAP: GET on it serves the documents, a path after it the HTTP bindings. */
import type { RequestHandler } from 'express';
import { annotateUnexpected } from '../request-context/annotation';
import type { BindingRequest, BindingResponse } from '../request-context/exchange';
import type { Settings } from '../config';
import type { Service } from '../services/types';
import type { ServiceDescription } from './contract';
import { documentsHandler } from './documents';
import { handleHttpBinding } from './http';

export function serviceEndpoint(service: Service, description: ServiceDescription, settings: Settings): RequestHandler {
  const documents = documentsHandler(service, description, settings);
  const http = httpBindings(service, settings);
  return (req, res, next) => {
    if (pathInfo(req) !== '') return http(req, res);
    if (req.method === 'GET') return documents(req, res, next);
    next();
  };
}

/** The HTTP GET and POST bindings: a request to a path under the .asmx, on Node's own objects. */
export function httpBindings(service: Service, settings: Settings): (req: BindingRequest, res: BindingResponse) => void {
  return (req, res) => {
    handleHttpBinding(service, settings, req, res, pathInfo(req)).catch((error: unknown) => {
      // Its failures are answered inside; one that escapes (the answer itself failing) cuts the connection.
      annotateUnexpected(res, error);
      res.destroy();
    });
  };
}

/** The path after the .asmx as sent (percent-decoded), '' for the .asmx itself. */
export function pathInfo(req: BindingRequest): string {
  const pathname = req.originalUrl.split('?')[0];
  const raw = pathname.slice(req.baseUrl.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
