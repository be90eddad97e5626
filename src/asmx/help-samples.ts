/**
 * The four sample request/response pairs of an operation's help page (SOAP 1.1, SOAP 1.2, HTTP GET,
 * HTTP POST), as the legacy .NET help page shows them, with "string" as every placeholder value.
 * The HTTP samples show this service's answers: the JSON result (docs/behaviour.md) or HelloWorld's <string>.
 */
import type { Service, ServiceOperation } from '../services/types';

export interface SampleContext {
  host: string;
  /** Base path + service path, e.g. /API/MobileAppWebService.asmx */
  servicePath: string;
}

export interface Sample {
  title: string;
  intro: string;
  request: string;
  response: string;
}

const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';

export function operationSamples(service: Service, op: ServiceOperation, ctx: SampleContext): Sample[] {
  return [soapSample(service, op, ctx, '1.1'), soapSample(service, op, ctx, '1.2'), httpGetSample(service, op, ctx), httpPostSample(service, op, ctx)];
}

/** HTTP samples list the contract parameters, or the extra fields of an operation that has none. */
export function httpNames(op: ServiceOperation): readonly string[] {
  return op.params.length > 0 ? op.params : op.fields;
}

function soapSample(service: Service, op: ServiceOperation, ctx: SampleContext, version: '1.1' | '1.2'): Sample {
  const is11 = version === '1.1';
  const headers = [
    `POST ${ctx.servicePath} HTTP/1.1`,
    `Host: ${ctx.host}`,
    `Content-Type: ${is11 ? 'text/xml' : 'application/soap+xml'}; charset=utf-8`,
    'Content-Length: length',
    ...(is11 ? [`SOAPAction: "${service.namespace}${op.name}"`] : []),
  ];
  const args = op.params.map((p) => `      <${p}>string</${p}>`);
  const requestBody = envelope(is11 ? SOAP11_NS : SOAP12_NS, is11 ? 'soap' : 'soap12', [
    `    <${op.name} xmlns="${service.namespace}">`,
    ...args,
    `    </${op.name}>`,
  ]);
  const responseBody = envelope(is11 ? SOAP11_NS : SOAP12_NS, is11 ? 'soap' : 'soap12', soapResponseBody(service, op));
  return {
    title: `SOAP ${version}`,
    intro: `The following is a sample SOAP ${version} request and response. The placeholders shown need to be replaced with actual values.`,
    request: [...headers, '', requestBody].join('\n'),
    response: ['HTTP/1.1 200 OK', `Content-Type: ${is11 ? 'text/xml' : 'application/soap+xml'}; charset=utf-8`, 'Content-Length: length', '', responseBody].join('\n'),
  };
}

function soapResponseBody(service: Service, op: ServiceOperation): string[] {
  if (op.returns.kind === 'text') {
    return [`    <${op.name}Response xmlns="${service.namespace}">`, `      <${op.name}Result>string</${op.name}Result>`, `    </${op.name}Response>`];
  }
  return [`    <${op.name}Response xmlns="${service.namespace}" />`];
}

function envelope(ns: string, prefix: string, body: string[]): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<${prefix}:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:${prefix}="${ns}">`,
    `  <${prefix}:Body>`,
    ...body,
    `  </${prefix}:Body>`,
    `</${prefix}:Envelope>`,
  ].join('\n');
}

function httpGetSample(service: Service, op: ServiceOperation, ctx: SampleContext): Sample {
  const query = formEncodedSample(op);
  return {
    title: 'HTTP GET',
    intro: 'The following is a sample HTTP GET request and response. The placeholders shown need to be replaced with actual values.',
    request: [`GET ${ctx.servicePath}/${op.name}${query ? `?${query}` : ''} HTTP/1.1`, `Host: ${ctx.host}`].join('\n'),
    response: httpResponse(service, op),
  };
}

function httpPostSample(service: Service, op: ServiceOperation, ctx: SampleContext): Sample {
  return {
    title: 'HTTP POST',
    intro: 'The following is a sample HTTP POST request and response. The placeholders shown need to be replaced with actual values.',
    request: [
      `POST ${ctx.servicePath}/${op.name} HTTP/1.1`,
      `Host: ${ctx.host}`,
      'Content-Type: application/x-www-form-urlencoded',
      'Content-Length: length',
      '',
      formEncodedSample(op),
    ].join('\n'),
    response: httpResponse(service, op),
  };
}

function formEncodedSample(op: ServiceOperation): string {
  return httpNames(op).map((name) => `${name}=string`).join('&');
}

function httpResponse(service: Service, op: ServiceOperation): string {
  if (op.returns.kind === 'text') {
    return [
      'HTTP/1.1 200 OK',
      'Content-Type: text/xml; charset=utf-8',
      'Content-Length: length',
      '',
      '<?xml version="1.0" encoding="utf-8"?>',
      `<string xmlns="${service.namespace}">string</string>`,
    ].join('\n');
  }
  return [
    'HTTP/1.1 200 OK',
    'Content-Type: application/json; charset=utf-8',
    'Content-Length: length',
    '',
    '{"Success":true,"Message":"","Data":...}',
  ].join('\n');
}
