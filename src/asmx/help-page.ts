/** The HTML help pages of a service, like the legacy ones; every value from a request or a setting is escaped. */
import { contractInputs, type Service, type ServiceOperation } from '../services/types';
import type { DateOrder } from '../config';
import { isScalar, type FieldType, type RecordType, type ResultType } from '../operations/results';
import { acceptedValues, PARAMETERS } from '../services/parameters';
import { ENVELOPE_NS } from './faults';
import { inlineSource, pagePolicy } from './page-policy';
import { v2ResultTypeName, XSD_TYPE } from './typed-xml';
import { escapeXml as esc } from './xml-escape';

const STYLE = `
    body { color: #000000; background-color: white; font-family: Verdana; margin-left: 0px; margin-top: 0px; }
    #content { margin-left: 30px; font-size: .70em; padding-bottom: 2em; }
    a:link, a:visited { color: #336699; font-weight: bold; text-decoration: underline; }
    a:hover { color: #cc3300; }
    p { color: #000000; margin-top: 0px; margin-bottom: 12px; font-family: Verdana; }
    pre { background-color: #e5e5cc; padding: 5px; font-family: Courier New; font-size: x-small; margin-top: -5px; border: 1px #f0f0e0 solid; }
    h2 { font-size: 1.5em; font-weight: bold; margin-top: 25px; margin-bottom: 10px; border-top: 1px solid #003366; margin-left: -15px; color: #003366; }
    h3 { font-size: 1.1em; color: #000000; margin-left: -15px; margin-top: 10px; margin-bottom: 10px; }
    ul { margin-top: 10px; margin-left: 20px; }
    li { margin-top: 10px; color: #000000; }
    .heading1 { color: #ffffff; font-family: Tahoma; font-size: 26px; font-weight: normal; background-color: #003366; margin-top: 0px; margin-bottom: 0px; margin-left: -30px; padding-top: 10px; padding-bottom: 3px; padding-left: 15px; width: 105%; }
    .intro { margin-left: -15px; }
    table { font-size: 1em; }
    td { padding: 2px 8px; border: 1px solid #e5e5cc; }
    table.frm { border: 1px solid #dcdcdc; border-collapse: collapse; }
    table.frm td { border: none; padding: 4px; }
    .frmHeader { background-color: #dcdcdc; }
    .frmText { font-weight: normal; }
    `;

/** The pages' policy: their one inline style by its hash (STYLE is the element's whole text), the test form posting here. */
export const HELP_PAGE_POLICY = pagePolicy({ 'style-src': inlineSource(STYLE), 'form-action': "'self'" });

export function helpPage(service: Service): string {
  // Sorted as the legacy page sorts them: case-insensitively.
  const items = [...service.operations.keys()]
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : 1))
    .map((name) => `      <li><a href="?op=${encodeURIComponent(name)}">${esc(name)}</a></li>`)
    .join('\n');
  return page(
    service,
    `
    <span>
      <p class="intro">The following operations are supported. For a formal definition, please review the <a href="?WSDL">Service Description</a>.</p>
      <ul>
${items}
      </ul>
    </span>`,
  );
}

/** What an operation's page shows beyond its samples. */
export interface OperationPageOptions {
  /** The test form (docs/operations.md, "Help pages"), or the legacy sentence saying it is for the local machine only. */
  testForm: 'form' | 'local-only' | 'none';
  dateOrder: DateOrder;
}

export function operationHelpPage(
  service: Service,
  op: ServiceOperation,
  ctx: SampleContext,
  options: OperationPageOptions,
): string {
  const samples = operationSamples(service, op, ctx)
    .map(
      (s) => `
      <span>
        <h3>${esc(s.title)}</h3>
        <p>${esc(s.intro)}</p>
        <pre>${esc(s.request)}</pre>
        <pre>${esc(s.response)}</pre>
      </span>`,
    )
    .join('\n');
  return page(
    service,
    `
    <p class="intro">Click <a href="?">here</a> for a complete list of operations.</p>
    <h2>${esc(op.name)}</h2>
${parameterTable(service, op, options.dateOrder)}
${testSection(op, ctx, options.testForm)}
${samples}`,
  );
}

export function operationNotFoundPage(service: Service, name: string): string {
  return page(
    service,
    `
    <h2>Error</h2>
    <p class="intro">${esc(`Method '${name}' was not found in service ${service.name}.`)}</p>
    <p class="intro">Click <a href="?">here</a> for a complete list of operations.</p>`,
  );
}

/** Every name the operation reads, the contract's parameters first: what it accepts, and whether the contract lists it. */
function parameterTable(service: Service, op: ServiceOperation, dateOrder: DateOrder): string {
  const names = [...op.params, ...op.fields];
  if (names.length === 0) return '    <p class="intro">This operation takes no parameters.</p>';
  const rows = names.map((name) => {
    const parameter = PARAMETERS[name] ?? { kind: 'text', description: '' };
    const extension =
      service.contract === 'legacy' && op.params.length > 0 && op.fields.includes(name)
        ? ' <em>Not in the legacy contract: an extension this server reads.</em>'
        : '';
    const cells = [
      esc(name),
      'string',
      esc(acceptedValues(parameter, op.sorting, dateOrder)),
      esc(parameter.description) + extension,
    ];
    return `        <tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
  });
  const notes = [
    ...(service.contract === 'legacy' && op.params.length === 0
      ? ['The WSDL lists none of these: they are sent as named fields (query, form, JSON or multipart).']
      : []),
    ...(op.acceptsFiles
      ? ['Files are sent as multipart/form-data parts, under any name, or base64 in FileContent.']
      : []),
  ];
  const noted = notes.map((note) => `\n    <p class="intro">${note}</p>`).join('');
  const optional = op.write
    ? 'called with none, it changes nothing'
    : 'every parameter is optional: empty or missing means no filter, or the default named';
  return [
    `    <h3>Parameters (${optional})</h3>`,
    '    <table>',
    '        <tr><td><b>Name</b></td><td><b>Type</b></td><td><b>Accepts</b></td><td><b>Meaning</b></td></tr>',
    ...rows,
    `    </table>${noted}`,
  ].join('\n');
}

/** The legacy page's Test section: a form that posts to the HTTP POST binding, with file inputs for files. */
function testSection(op: ServiceOperation, ctx: SampleContext, testForm: OperationPageOptions['testForm']): string {
  if (testForm === 'none') return '';
  if (testForm === 'local-only')
    return '    <h3>Test</h3>\n    <p>The test form is only available for requests from the local machine.</p>';
  const inputs = [...op.params, ...op.fields].map(
    (name) =>
      `        <tr><td class="frmText">${esc(name)}:</td><td><input class="frmInput" type="text" size="50" name="${esc(name)}"></td></tr>`,
  );
  if (op.acceptsFiles)
    inputs.push(
      '        <tr><td class="frmText">Files:</td><td><input class="frmInput" type="file" name="File" multiple></td></tr>',
    );
  const enctype = op.acceptsFiles ? ' enctype="multipart/form-data"' : '';
  return `    <h3>Test</h3>
    <p>To test the operation using the HTTP POST protocol, click the 'Invoke' button.</p>
    <form target="_blank" action="${esc(`${ctx.servicePath}/${op.name}`)}" method="POST"${enctype}>
      <table class="frm">
        <tr><td class="frmHeader">Parameter</td><td class="frmHeader">Value</td></tr>
${[...inputs, '        <tr><td></td><td align="right"><input type="submit" value="Invoke" class="button"></td></tr>'].join('\n')}
      </table>
    </form>`;
}

function page(service: Service, body: string): string {
  return `<html>
  <head>
    <meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
    <style type="text/css">${STYLE}</style>
    <title>${esc(service.name)} Web Service</title>
  </head>
  <body>
    <div id="content">
      <p class="heading1">${esc(service.name)}</p><br>
${body}
    </div>
  </body>
</html>
`;
}

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

/**
 * The four sample request/response pairs of an operation's help page, as the legacy .NET page shows them,
 * with this service's answers; a v2 service's typed ones have placeholders named after the XML Schema
 * types and a list shown with two items, as .NET's pages show them.
 */
function operationSamples(service: Service, op: ServiceOperation, ctx: SampleContext): Sample[] {
  return [
    soapSample(service, op, ctx, '1.1'),
    soapSample(service, op, ctx, '1.2'),
    httpSample(service, op, ctx, 'GET'),
    httpSample(service, op, ctx, 'POST'),
  ];
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

const intro = (what: string) =>
  `The following is a sample ${what} request and response. The placeholders shown need to be replaced with actual values.`;

const responseHead = (type: string) => [
  'HTTP/1.1 200 OK',
  `Content-Type: ${type}; charset=utf-8`,
  'Content-Length: length',
  '',
];

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

function soapResponseBody(service: Service, op: ServiceOperation): string[] {
  if (op.returns.kind === 'text') {
    return [
      `    <${op.name}Response xmlns="${service.namespace}">`,
      `      <${op.name}Result>string</${op.name}Result>`,
      `    </${op.name}Response>`,
    ];
  }
  if (service.contract === 'v2') {
    return [
      `    <${op.name}Response xmlns="${service.namespace}">`,
      ...typedSample(`${op.name}Result`, op.returns, '      '),
      `    </${op.name}Response>`,
    ];
  }
  return [`    <${op.name}Response xmlns="${service.namespace}" />`];
}

/** The typed result element of the v2 contract with placeholders (typed-xml.ts writes the real one). */
function typedSample(
  name: string,
  returns: Exclude<ResultType, { kind: 'text' }>,
  indent: string,
  attributes = '',
): string[] {
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
  const fields = Object.entries(type.fields).flatMap(([field, fieldType]) =>
    fieldSample(field, fieldType, `${indent}  `),
  );
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
      : [
          `POST ${url} HTTP/1.1`,
          `Host: ${ctx.host}`,
          'Content-Type: application/x-www-form-urlencoded',
          'Content-Length: length',
          '',
          form,
        ];
  return {
    title: `HTTP ${method}`,
    intro: intro(`HTTP ${method}`),
    request: request.join('\n'),
    response: httpResponse(service, op),
  };
}

function httpResponse(service: Service, op: ServiceOperation): string {
  if (op.returns.kind === 'text')
    return [...responseHead('text/xml'), XML_DECLARATION, `<string xmlns="${service.namespace}">string</string>`].join(
      '\n',
    );
  if (service.contract === 'v2') {
    const ns = ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="${service.namespace}"`;
    return [
      ...responseHead('text/xml'),
      XML_DECLARATION,
      ...typedSample(v2ResultTypeName(op.name), op.returns, '', ns),
    ].join('\n');
  }
  return [...responseHead('application/json'), '{"Success":true,"Message":"","Data":...}'].join('\n');
}
