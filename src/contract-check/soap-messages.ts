/**
 * What the SOAP checks send and the exact documents they expect back, written here from the legacy
 * contract rather than taken from the server's document code, so a check compares the server with the
 * contract and not with itself. The texts inside the faults are the catalogue's
 * (src/protocol-texts.ts), as the operations are the WSDL files': the one statement of each, which
 * the test suite pins with literal texts.
 */
export type SoapVersion = '1.1' | '1.2';

export const ENVELOPE_NS: Record<SoapVersion, string> = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
};

export const SOAP_CONTENT_TYPE: Record<SoapVersion, string> = {
  '1.1': 'text/xml; charset=utf-8',
  '1.2': 'application/soap+xml; charset=utf-8',
};

const FAULT_CODE = {
  '1.1': { client: 'Client', server: 'Server', versionMismatch: 'VersionMismatch', mustUnderstand: 'MustUnderstand' },
  '1.2': { client: 'Sender', server: 'Receiver', versionMismatch: 'VersionMismatch', mustUnderstand: 'MustUnderstand' },
} as const;

export type FaultKind = keyof (typeof FAULT_CODE)['1.1'];

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** A request envelope as generated clients write it. */
export function requestEnvelope(version: SoapVersion, bodyXml: string, headerXml = ''): string {
  const header = headerXml ? `<soap:Header>${headerXml}</soap:Header>` : '';
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}" ${XSI_XSD}>${header}<soap:Body>${bodyXml}</soap:Body></soap:Envelope>`;
}

export function operationElement(name: string, ns: string, values: Record<string, string> = {}): string {
  const inner = Object.entries(values)
    .map(([key, value]) => `<${key}>${escapeText(value)}</${key}>`)
    .join('');
  return inner
    ? `<${name} xmlns="${escapeAttribute(ns)}">${inner}</${name}>`
    : `<${name} xmlns="${escapeAttribute(ns)}" />`;
}

/** Byte for byte what ASMX answers to a successful call (one line, no trailing newline). */
export function successDocument(version: SoapVersion, operation: string, ns: string, stringResult?: string): string {
  const response =
    stringResult === undefined
      ? `<${operation}Response xmlns="${escapeAttribute(ns)}" />`
      : `<${operation}Response xmlns="${escapeAttribute(ns)}"><${operation}Result>${escapeText(stringResult)}</${operation}Result></${operation}Response>`;
  return `${envelopeStart(version)}<soap:Body>${response}</soap:Body></soap:Envelope>`;
}

/**
 * Byte for byte the fault ASMX writes: no faultactor, no Subcode, Node or Role; MustUnderstand
 * without a detail element; VersionMismatch always in the SOAP 1.1 shape with the Upgrade header.
 */
export function faultDocument(version: SoapVersion, kind: FaultKind, message: string): string {
  const header = kind === 'versionMismatch' ? UPGRADE_HEADER : '';
  const text = escapeText(message);
  const code = FAULT_CODE[version][kind];
  const fault =
    version === '1.1'
      ? `<soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${text}</faultstring>${kind === 'mustUnderstand' ? '' : '<detail />'}</soap:Fault>`
      : `<soap:Fault><soap:Code><soap:Value>soap:${code}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason>${kind === 'mustUnderstand' ? '' : '<soap:Detail />'}</soap:Fault>`;
  return `${envelopeStart(version)}${header}<soap:Body>${fault}</soap:Body></soap:Envelope>`;
}

function envelopeStart(version: SoapVersion): string {
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}" ${XSI_XSD}>`;
}

const UPGRADE_HEADER =
  '<soap:Header><soap12:Upgrade xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">' +
  '<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" />' +
  '<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" />' +
  '</soap12:Upgrade></soap:Header>';

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
