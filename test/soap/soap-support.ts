/**
 * Helpers for the SOAP binding tests: envelopes as clients write them, the operation list read from
 * the WSDL files (never a hand-kept list), and the exact legacy response documents to compare with.
 */
import request from 'supertest';
import type { App } from '../../src/app';
import { MAIN_OPERATIONS, SYNC_OPERATIONS } from '../support/interface-table';

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP11_TYPE = 'text/xml; charset=utf-8';
export const SOAP12_TYPE = 'application/soap+xml; charset=utf-8';

export type Version = '1.1' | '1.2';

export const MAIN_PATH = '/API/MobileAppWebService.asmx';
export const SYNC_PATH = '/API/SyncCustomers.asmx';

/** Operation names in WSDL order (test/support/interface-table.ts reads them from the WSDL files). */
export function wsdlOperations(service: 'MobileAppWebService' | 'SyncCustomers'): string[] {
  return operationsOf(service).map(([name]) => name);
}

/** Parameter names of an operation, in WSDL order. */
export function wsdlParams(service: 'MobileAppWebService' | 'SyncCustomers', operation: string): string[] {
  return [...(operationsOf(service).find(([name]) => name === operation)?.[1] ?? [])];
}

function operationsOf(service: 'MobileAppWebService' | 'SyncCustomers') {
  return service === 'MobileAppWebService' ? MAIN_OPERATIONS : SYNC_OPERATIONS;
}

export function envelope(version: Version, bodyXml: string, headerXml = ''): string {
  const ns = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  const header = headerXml ? `<soap:Header>${headerXml}</soap:Header>` : '';
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="${ns}">${header}<soap:Body>${bodyXml}</soap:Body></soap:Envelope>`
  );
}

export function operationElement(operation: string, ns: string, values: Record<string, string> = {}): string {
  const children = Object.entries(values)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return `<${operation} xmlns="${ns}">${children}</${operation}>`;
}

/** Posts a SOAP request the way generated clients do: SOAPAction quoted for 1.1, none for 1.2. */
export function postSoap(
  app: App,
  url: string,
  version: Version,
  body: string | Buffer,
  options: { action?: string | null; contentType?: string; headers?: Record<string, string> } = {},
) {
  let req = request(app)
    .post(url)
    .set('Content-Type', options.contentType ?? (version === '1.1' ? SOAP11_TYPE : SOAP12_TYPE));
  if (version === '1.1' && options.action !== null && options.action !== undefined)
    req = req.set('SOAPAction', options.action);
  for (const [name, value] of Object.entries(options.headers ?? {})) req = req.set(name, value);
  return req.buffer(true).parse(textParser).send(body);
}

/** Keeps every response body as text, whatever its Content-Type. */
export function textParser(res: request.Response, done: (err: Error | null, body: unknown) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => {
    (res as unknown as { text: string }).text = text;
    done(null, text);
  });
}

function envelopeStart(version: Version): string {
  const ns = version === '1.1' ? SOAP11_NS : SOAP12_NS;
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`
  );
}

/** The legacy success document for a void operation (docs/contract.md, recorded: ok-soap11-getPCNList). */
export function emptyResponse(version: Version, operation: string, ns: string): string {
  return `${envelopeStart(version)}<soap:Body><${operation}Response xmlns="${ns}" /></soap:Body></soap:Envelope>`;
}

/** The legacy success document for HelloWorld (docs/contract.md, recorded: ok-soap11-HelloWorld). */
export function helloWorldResponse(version: Version, ns: string): string {
  return (
    `${envelopeStart(version)}<soap:Body><HelloWorldResponse xmlns="${ns}"><HelloWorldResult>Hello World</HelloWorldResult>` +
    `</HelloWorldResponse></soap:Body></soap:Envelope>`
  );
}

/** The legacy fault document (docs/contract.md, recorded: err-soap11-ThrowError, err-soap12-ThrowError). */
export function faultResponse(version: Version, code: string, text: string, withDetail = true): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const fault =
    version === '1.1'
      ? `<soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${escaped}</faultstring>${withDetail ? '<detail />' : ''}</soap:Fault>`
      : `<soap:Fault><soap:Code><soap:Value>soap:${code}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${escaped}</soap:Text></soap:Reason>${withDetail ? '<soap:Detail />' : ''}</soap:Fault>`;
  return `${envelopeStart(version)}<soap:Body>${fault}</soap:Body></soap:Envelope>`;
}
