/**
 * The four sample request/response pairs of an operation's help page, as the legacy .NET page shows
 * them, showing this service's answers; a v2 service's typed ones have placeholders named after the
 * XML Schema types and a list shown with two items, as .NET's pages show them.
 */
import { isScalar, type FieldType, type RecordType, type ResultType } from '../operations/results';
import { contractInputs, type Service, type ServiceOperation } from '../services/types';
import { ENVELOPE_NS } from './faults';
import { v2ResultTypeName, XSD_TYPE } from './typed-xml';

export interface SampleContext {
  host: string;
  /** Base path + service path, e.g. /API/MobileAppWebService.asmx */
  servicePath: string;
}

interface Sample {
  title: string;
  intro: string;
  request: string;
  response: string;
}

export function operationSamples(service: Service, op: ServiceOperation, ctx: SampleContext): Sample[] {
  return [soapSample(service, op, ctx, '1.1'), soapSample(service, op, ctx, '1.2'), httpSample(service, op, ctx, 'GET'), httpSample(service, op, ctx, 'POST')];
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
  const args = contractInputs(op, service.contract).map((p) => `      <${p}>string</${p}>`);
  const requestBody = envelope(ENVELOPE_NS[version], is11 ? 'soap' : 'soap12', [
    `    <${op.name} xmlns="${service.namespace}">`,
    ...args,
    `    </${op.name}>`,
  ]);
  const responseBody = envelope(ENVELOPE_NS[version], is11 ? 'soap' : 'soap12', soapResponseBody(service, op));
  return {
    title: `SOAP ${version}`,
    intro: intro(`SOAP ${version}`),
    request: [...headers, '', requestBody].join('\n'),
    response: [...responseHead(is11 ? 'text/xml' : 'application/soap+xml'), responseBody].join('\n'),
  };
}

const intro = (what: string) => `The following is a sample ${what} request and response. The placeholders shown need to be replaced with actual values.`;

const responseHead = (type: string) => ['HTTP/1.1 200 OK', `Content-Type: ${type}; charset=utf-8`, 'Content-Length: length', ''];

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

function soapResponseBody(service: Service, op: ServiceOperation): string[] {
  if (op.returns.kind === 'text') {
    return [`    <${op.name}Response xmlns="${service.namespace}">`, `      <${op.name}Result>string</${op.name}Result>`, `    </${op.name}Response>`];
  }
  if (service.contract === 'v2') {
    return [`    <${op.name}Response xmlns="${service.namespace}">`, ...typedSample(`${op.name}Result`, op.returns, '      '), `    </${op.name}Response>`];
  }
  return [`    <${op.name}Response xmlns="${service.namespace}" />`];
}

/** The typed result element of the v2 contract with placeholders (typed-xml.ts writes the real one). */
function typedSample(name: string, returns: Exclude<ResultType, { kind: 'text' }>, indent: string, attributes = ''): string[] {
  const lines = [`${indent}<${name}${attributes}>`, `${indent}  <Message>string</Message>`];
  if (returns.kind === 'rows') {
    lines.push(`${indent}  <Count>int</Count>`, ...fieldSample('Data', { list: returns.row }, `${indent}  `));
    if (returns.totals) lines.push(...fieldSample('Totals', { record: returns.totals }, `${indent}  `));
  } else {
    lines.push(...fieldSample('Data', { record: returns.type }, `${indent}  `));
  }
  if (returns.pageable) lines.push(`${indent}  <NextPageToken>string</NextPageToken>`);
  return [...lines, `${indent}</${name}>`];
}

function fieldSample(name: string, type: FieldType, indent: string): string[] {
  if (isScalar(type)) return [`${indent}<${name}>${XSD_TYPE[type.kind]}</${name}>`];
  if ('record' in type) return recordSample(name, type.record, indent);
  const item = recordSample(type.list.name, type.list, `${indent}  `);
  return [`${indent}<${name}>`, ...item, ...item, `${indent}</${name}>`];
}

function recordSample(name: string, type: RecordType, indent: string): string[] {
  const fields = Object.entries(type.fields).flatMap(([field, fieldType]) => fieldSample(field, fieldType, `${indent}  `));
  return [`${indent}<${name}>`, ...fields, `${indent}</${name}>`];
}

function envelope(ns: string, prefix: string, body: string[]): string {
  return [
    XML_DECLARATION,
    `<${prefix}:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:${prefix}="${ns}">`,
    `  <${prefix}:Body>`,
    ...body,
    `  </${prefix}:Body>`,
    `</${prefix}:Envelope>`,
  ].join('\n');
}

function httpSample(service: Service, op: ServiceOperation, ctx: SampleContext, method: 'GET' | 'POST'): Sample {
  // The contract parameters, or the extra fields of an operation that has none; a v2 service's WSDL lists both.
  const names = service.contract === 'v2' ? contractInputs(op, 'v2') : op.params.length > 0 ? op.params : op.fields;
  const form = names.map((name) => `${name}=string`).join('&');
  const url = `${ctx.servicePath}/${op.name}`;
  const request =
    method === 'GET'
      ? [`GET ${url}${form ? `?${form}` : ''} HTTP/1.1`, `Host: ${ctx.host}`]
      : [`POST ${url} HTTP/1.1`, `Host: ${ctx.host}`, 'Content-Type: application/x-www-form-urlencoded', 'Content-Length: length', '', form];
  return { title: `HTTP ${method}`, intro: intro(`HTTP ${method}`), request: request.join('\n'), response: httpResponse(service, op) };
}

function httpResponse(service: Service, op: ServiceOperation): string {
  if (op.returns.kind === 'text') return [...responseHead('text/xml'), XML_DECLARATION, `<string xmlns="${service.namespace}">string</string>`].join('\n');
  if (service.contract === 'v2') {
    const ns = ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="${service.namespace}"`;
    return [...responseHead('text/xml'), XML_DECLARATION, ...typedSample(v2ResultTypeName(op.name), op.returns, '', ns)].join('\n');
  }
  return [...responseHead('application/json'), '{"Success":true,"Message":"","Data":...}'].join('\n');
}
