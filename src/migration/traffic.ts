/**
 * What an exchange between a client and an ASMX server is, read from the request alone: which
 * service, contract, operation and binding it calls, and whether it changes data. Reads and writes
 * come from the operation declarations (src/services/registry.ts), the same ones the server runs.
 */
import { mainServiceOperations } from '../services/registry';

export type Binding = 'soap11' | 'soap12' | 'get' | 'post' | 'document';

export interface Call {
  /** The service's name from the path (MobileAppWebService, SyncCustomers), or '' for another path. */
  service: string;
  contract: 'legacy' | 'v2';
  /** The operation; for a document what it is: wsdl, disco, help, openapi or other. */
  operation: string;
  binding: Binding;
  write: boolean;
}

export interface RequestHead {
  method: string;
  /** The path and query, as on the request line. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

const WRITES = new Set(mainServiceOperations.filter((op) => op.kind === 'write').map((op) => op.name.toLowerCase()));

/** Any base path before it; ASMX paths are case-insensitive. */
const SERVICE_PATH = /\/API\/(v2\/)?([A-Za-z0-9_]+)\.asmx(?:\/([^/?]*))?$/i;

/** `body`: the request body, read when the operation of a SOAP call is not in its action. */
export function classify(request: RequestHead, body: Buffer): Call {
  const [path, query = ''] = splitUrl(request.url);
  if (/\/API\/openapi\.json$/i.test(path)) return document('', 'legacy', 'openapi');
  const match = SERVICE_PATH.exec(path);
  if (match === null) return document('', 'legacy', 'other');
  const contract = match[1] === undefined ? 'legacy' : 'v2';
  const service = match[2];
  const method = request.method.toUpperCase();
  if (match[3] !== undefined && match[3] !== '') return call(service, contract, match[3], method === 'GET' ? 'get' : 'post');
  if (method === 'POST') {
    const type = header(request.headers, 'content-type');
    const binding = type.toLowerCase().startsWith('application/soap+xml') ? 'soap12' : 'soap11';
    return call(service, contract, soapOperation(request.headers, type, body) ?? '', binding);
  }
  const ask = query.split('&')[0].toLowerCase();
  return document(service, contract, ask === 'wsdl' ? 'wsdl' : ask === 'disco' ? 'disco' : 'help');
}

function call(service: string, contract: Call['contract'], operation: string, binding: Binding): Call {
  const write = service.toLowerCase() === 'mobileappwebservice' && WRITES.has(operation.toLowerCase());
  return { service, contract, operation, binding, write };
}

function document(service: string, contract: Call['contract'], operation: string): Call {
  return { service, contract, operation, binding: 'document', write: false };
}

function splitUrl(url: string): [string, string?] {
  const at = url.indexOf('?');
  return at === -1 ? [url] : [url.slice(0, at), url.slice(at + 1)];
}

export function header(headers: RequestHead['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The media type and charset, the way two servers may spell them differently and mean the same. */
export function mediaType(answer: Pick<RequestHead, 'headers'>): string {
  const value = header(answer.headers, 'content-type').toLowerCase();
  const [type, ...parameters] = value.split(';').map((part) => part.trim());
  const charset = parameters.find((part) => part.startsWith('charset='));
  return charset === undefined ? type : `${type}; ${charset.replace(/"/g, '')}`;
}

/**
 * The operation a SOAP request names: its SOAPAction (1.1) or action parameter (1.2), else the first
 * element of its Body. Both are read without trusting the body to be well formed.
 */
function soapOperation(headers: RequestHead['headers'], type: string, body: Buffer): string | undefined {
  const action = header(headers, 'soapaction') || /;\s*action\s*=\s*"?([^";]*)/i.exec(type)?.[1] || '';
  const named = action.replace(/^"|"$/g, '').split('/').pop();
  return named !== undefined && named !== '' ? named : bodyOperation(body);
}

/** How far into a SOAP request its Body's first element is looked for: its envelope's head, not its data. */
const ENVELOPE_HEAD_BYTES = 64 * 1024;

/** The local name of the first element in a SOAP Body, looked for in the body's first ENVELOPE_HEAD_BYTES. */
export function bodyOperation(body: Buffer): string | undefined {
  return /<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([\w.-]+)/.exec(body.subarray(0, ENVELOPE_HEAD_BYTES).toString('utf8'))?.[1];
}
