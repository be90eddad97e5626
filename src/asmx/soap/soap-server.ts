/**
 * The engine behind both SOAP bindings of one service: two soap.listen instances driven by the
 * service's WSDL, one per SOAP version, each set up on its own express Router (docs/contract.md: one instance
 * answers SOAP 1.2 with a SOAP 1.1 envelope, and switching forceSoap12Headers per request races). A
 * request is handed to the instance's request listener directly (what the route soap.listen adds would
 * call), the path being matched already.
 *
 * The guard and the router in front (index.ts) have already read, checked and routed the request, so
 * soap.listen is handed a request it cannot misread: the body is a minimal envelope holding only the
 * operation's element, the SOAPAction names that operation, and the Content-Type is the response's.
 * It dispatches to the method below and serialises the successful response, which then is the legacy
 * bytes (useEmptyTag, xmlnsInEnvelope, no chunking so Content-Length is set). The parameter values
 * travel beside it (read from the original envelope), and a failed operation is answered with the
 * project's own fault document, which the library cannot write in the legacy shape.
 *
 * Every failure caught here or by the library (its `log` hook reports what it caught) goes to
 * onUnexpected with the request's response, so it is logged once, on the request's log line.
 */
import { Router, type Request, type Response } from 'express';
import * as soap from 'soap';
import type { Service } from '../../services/types';
import type { UsersTable } from '../../db/schema';
import { ENVELOPE_NS, SOAP_CONTENT_TYPE, UNEXPECTED_FAULT, XSI_XSD, type SoapVersion } from '../faults';
import type { AppError } from '../../errors';
import { annotate } from '../../request-context/annotation';
import { escapeXmlText } from '../xml-escape';
import { faultFor, responseObject } from './operation-outcome';
import { sendFault } from './respond';

export interface SoapCall {
  operation: string;
  version: SoapVersion;
  values: [string, string][];
  /** The authenticated user (src/auth), when authentication is on. */
  principal?: UsersTable;
}

export type UnexpectedErrorHandler = (error: unknown, operation: string, res: Response) => void;

export interface SoapEngine {
  /** Answers the request by running call.operation through soap.listen. */
  dispatch(req: Request, res: Response, call: SoapCall): void;
}

export async function startSoapEngine(
  service: Service,
  wsdlXml: string,
  path: string,
  onUnexpected: UnexpectedErrorHandler,
): Promise<SoapEngine> {
  const calls = new WeakMap<Request, SoapCall>();
  const responses = new WeakMap<object, Response>();
  const methods = methodsOf(service, calls, onUnexpected);
  const log = libraryLog(responses, onUnexpected);
  const [soap11, soap12] = await Promise.all([
    listenVersion('1.1', service, wsdlXml, path, methods, log),
    listenVersion('1.2', service, wsdlXml, path, methods, log),
  ]);
  const servers: Record<SoapVersion, LibraryServer> = { '1.1': soap11, '1.2': soap12 };
  // One minimal envelope per version and operation (call.operation is one of the service's: bounded).
  const envelopes = new Map<string, Buffer>();
  return {
    dispatch(req, res, call) {
      calls.set(req, call);
      responses.set(req, res);
      prepareForLibrary(req, service, call, envelopes);
      res.setHeader('Cache-Control', 'private, max-age=0');
      // Straight to what the library's route would call: the path is the one it listens on, already matched.
      servers[call.version]._requestListener(req, res);
    },
  };
}

type Methods = Record<string, soap.ISoapServiceMethod>;

/**
 * The parts of the library's server this module sets (typed private in soap 1.13, public at run
 * time): the parsed WSDL's services and the namespace declarations written on every envelope.
 */
interface LibraryServer {
  wsdl: {
    xmlnsInEnvelope: string;
    definitions: { services: Record<string, { ports: Record<string, unknown> } | undefined> };
    xmlToObject(xml: string): unknown;
  };
  /** What the route soap.listen adds to the router calls for a request to its path. */
  _requestListener(req: Request, res: Response): void;
}

type LibraryLog = (type: string, data: unknown, req: unknown) => void;

/** The library's log hook: what it caught ('error') goes to onUnexpected for the request it belongs to. */
function libraryLog(responses: WeakMap<object, Response>, onUnexpected: UnexpectedErrorHandler): LibraryLog {
  return (type, data, req) => {
    if (type !== 'error') return;
    const res = typeof req === 'object' && req !== null ? responses.get(req) : undefined;
    if (res) onUnexpected(data, '(soap library)', res);
  };
}

function listenVersion(version: SoapVersion, service: Service, wsdlXml: string, path: string, methods: Methods, log: LibraryLog): Promise<LibraryServer> {
  const router = Router();
  const services: soap.IServices = { [service.name]: {} };
  return new Promise((resolve, reject) => {
    soap.listen(router, {
      path,
      services,
      xml: wsdlXml,
      useEmptyTag: true,
      forceSoap12Headers: version === '1.2',
      enableChunkedEncoding: false,
      suppressStack: true,
      callback: (error: unknown, server: soap.Server) => {
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        try {
          const { wsdl } = server as unknown as LibraryServer;
          bindPorts(wsdl, services, service.name, methods);
          server.log = log;
          wsdl.xmlnsInEnvelope = XSI_XSD;
          wsdl.xmlToObject = parsedOnce(wsdl.xmlToObject.bind(wsdl));
          resolve(server as unknown as LibraryServer);
        } catch (bindError) {
          reject(bindError);
        }
      },
    });
  });
}

/**
 * Offers the methods on every port of the WSDL service: the library picks a port by matching its
 * address against the request path, and the WSDL's addresses are placeholders (rebuilt per request
 * for ?wsdl), so it falls back to a port of its own choosing. Set once the WSDL is parsed; the
 * library looks methods up at request time.
 */
function bindPorts(wsdl: LibraryServer['wsdl'], services: soap.IServices, serviceName: string, methods: Methods): void {
  const definition = wsdl.definitions.services[serviceName];
  if (!definition) throw new Error(`The WSDL has no service named ${serviceName}`);
  for (const port of Object.keys(definition.ports)) services[serviceName][port] = methods;
}

/**
 * The library parses the envelope it is handed again. That envelope is minimalEnvelope(): one per
 * operation and version, so each is parsed once and its (frozen: the library only reads it, and the
 * methods ignore their arguments) result reused. Anything else is parsed as before.
 */
function parsedOnce(parse: (xml: string) => unknown): (xml: string) => unknown {
  const parsed = new Map<string, unknown>();
  return (xml) => {
    let result = parsed.get(xml);
    if (result === undefined) {
      result = deepFreeze(parse(xml));
      if (parsed.size < MAX_PARSED_ENVELOPES) parsed.set(xml, result);
    }
    return result;
  };
}

/** Far more than operations × versions: the cache never grows with what clients send. */
const MAX_PARSED_ENVELOPES = 256;

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function methodsOf(service: Service, calls: WeakMap<Request, SoapCall>, onUnexpected: UnexpectedErrorHandler): Methods {
  const methods: Methods = {};
  for (const operation of service.operations.keys()) {
    // Callback style (the method returns undefined): the library waits for callback(result), and a
    // failure is answered here instead, so the library never writes a fault of its own shape.
    methods[operation] = (_args, callback, _headers, req: Request, res: Response) => {
      runOperation(service, operation, calls.get(req), callback, res, onUnexpected).catch((error: unknown) => {
        onUnexpected(error, operation, res);
        res.destroy();
      });
    };
  }
  return methods;
}

async function runOperation(
  service: Service,
  operation: string,
  call: SoapCall | undefined,
  callback: ((result: unknown) => void) | undefined,
  res: Response,
  onUnexpected: UnexpectedErrorHandler,
): Promise<void> {
  if (!call || !callback) {
    onUnexpected(new Error('soap.listen called a method without its request or callback'), operation, res);
    sendFault(res, call?.version ?? '1.1', UNEXPECTED_FAULT);
    return;
  }
  let result: Record<string, string>;
  try {
    const outcome = await service.invoke(call.operation, { values: call.values, files: [], principal: call.principal, resultDiscarded: true });
    result = responseObject(call.operation, outcome);
  } catch (error) {
    const fault = faultFor(error);
    if (fault.kind === 'server') onUnexpected(error, call.operation, res);
    else annotate(res, { outcome: 'business_error', errorCode: (error as AppError).code });
    sendFault(res, call.version, fault);
    return;
  }
  try {
    annotate(res, { outcome: 'success' });
    callback(result);
  } catch (error) {
    onUnexpected(error, call.operation, res);
    sendFault(res, call.version, UNEXPECTED_FAULT);
  }
}

/**
 * What the library reads from the request: the body (already read, see body.ts), SOAPAction (it
 * routes by it), Content-Type (it echoes it as the response's).
 */
function prepareForLibrary(req: Request, service: Service, call: SoapCall, envelopes: Map<string, Buffer>): void {
  const key = `${call.version} ${call.operation}`;
  let envelope = envelopes.get(key);
  if (!envelope) {
    envelope = Buffer.from(minimalEnvelope(service.namespace, call), 'utf8');
    envelopes.set(key, envelope);
  }
  req.body = envelope;
  req.headers['content-type'] = SOAP_CONTENT_TYPE[call.version];
  req.headers.soapaction = `"${service.namespace}${call.operation}"`;
  delete req.headers['content-encoding'];
}

function minimalEnvelope(namespace: string, call: SoapCall): string {
  const ns = escapeXmlText(namespace).replace(/"/g, '&quot;');
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPE_NS[call.version]}">` +
    `<soap:Body><${call.operation} xmlns="${ns}" /></soap:Body></soap:Envelope>`
  );
}
