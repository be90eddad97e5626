/**
 * SOAP faults as the legacy ASMX stack writes them (contract.md, "SOAP"; captures README, "SOAP errors"):
 * the documents for SOAP 1.1 and SOAP 1.2, and the one catalogue of the protocol's fault texts.
 *
 * Texts are verbatim .NET (System.Web.Services resources, with the {0}/{1} arguments filled in as
 * .NET does; Mono leaves them unformatted). Business failures are not here: their messages come from
 * AppError (src/errors.ts) and only travel inside a Client/Sender fault.
 */
import { escapeXmlText } from './xml-escape';

export type SoapVersion = '1.1' | '1.2';

export const ENVELOPE_NS: Record<SoapVersion, string> = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
};

/** The response Content-Type of each version, whatever charset or action the request carried. */
export const SOAP_CONTENT_TYPE: Record<SoapVersion, string> = {
  '1.1': 'text/xml; charset=utf-8',
  '1.2': 'application/soap+xml; charset=utf-8',
};

/**
 * Fault codes by meaning. SOAP 1.1 names them Client/Server, SOAP 1.2 Sender/Receiver; VersionMismatch
 * and MustUnderstand are spelled the same in both.
 */
export type FaultKind = 'client' | 'server' | 'versionMismatch' | 'mustUnderstand';

const FAULT_CODE: Record<SoapVersion, Record<FaultKind, string>> = {
  '1.1': { client: 'Client', server: 'Server', versionMismatch: 'VersionMismatch', mustUnderstand: 'MustUnderstand' },
  '1.2': { client: 'Sender', server: 'Receiver', versionMismatch: 'VersionMismatch', mustUnderstand: 'MustUnderstand' },
};

/** The fault code as the document writes it (soap:Client, soap:Sender, ...), for the request log. */
export function faultCodeOf(version: SoapVersion, kind: FaultKind): string {
  return `soap:${FAULT_CODE[version][kind]}`;
}

/** The protocol's fault texts, in one place. */
export const FAULT_TEXT = {
  unknownSoapAction: (action: string) => `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`,
  unknownRequestElement: (name: string, ns: string) => `The request element <${name} xmlns='${ns}'> was not recognized.`,
  unknownAction: (action: string) => `Unable to handle request. The action '${action}' was not recognized.`,
  noValidAction: () => 'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
  /**
   * ASMX accepts a SOAPAction (or SOAP 1.2 action) naming one operation with a Body element of another
   * and runs the action's operation with every parameter null. This project refuses the disagreement
   * (contract.md: "check that they agree"); the text follows the wording of the .NET
   * "request element ... was not recognized" message so that it reads like the platform's own.
   */
  actionBodyMismatch: (action: string, name: string, ns: string) =>
    `The request element <${name} xmlns='${ns}'> does not match the action '${action}'.`,
  versionMismatch: (ns: string) =>
    `Possible SOAP version mismatch: Envelope namespace ${ns} was unexpected. Expecting ${ENVELOPE_NS['1.1']}.`,
  missingEnvelope: () => 'Server was unable to read request. ---> Request format is invalid: Missing required soap:Envelope element.',
  missingBody: () => 'Server was unable to read request. ---> Request format is invalid: Missing required soap:Body element.',
  /** An empty request body, as .NET's XmlReader reports it (captures: err-soap12-empty-body). */
  rootElementMissing: () => 'Server was unable to process request. ---> Root element is missing.',
  headerNotUnderstood: (name: string) => `SOAP header ${name} was not understood.`,
  /**
   * Authentication is on (AUTH_MODE) and the request carried no valid credentials. ASMX itself never
   * wrote this fault (IIS refused such requests before ASP.NET saw them); the text is the one Windows
   * gives for a refused access, so a client's log reads like the platform's own. Status 401.
   */
  accessDenied: () => 'Access is denied.',
  /** The client exceeded RATE_LIMIT_PER_MINUTE / RATE_LIMIT_BURST. Status 429 with Retry-After. */
  tooManyRequests: (retryAfterSeconds: number) => `Too many requests; retry after ${retryAfterSeconds} seconds.`,
  /** An operation failed for a reason of the server's own; never its internal message or stack. */
  unexpected: () => 'Server was unable to process request. ---> An unexpected error occurred on the server.',
} as const;

export interface Fault {
  kind: FaultKind;
  message: string;
}

/** Every failure that is the server's own: Server/Receiver with a fixed text. */
export const UNEXPECTED_FAULT: Fault = { kind: 'server', message: FAULT_TEXT.unexpected() };

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
/** The two namespace declarations ASMX puts on every envelope, after xmlns:soap. */
export const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** The envelope start both versions share, byte for byte as ASMX writes it. */
export function envelopeStart(version: SoapVersion): string {
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}" ${XSI_XSD}>`;
}

/**
 * The whole fault document. MustUnderstand faults carry no detail element (captures:
 * err-soap11-mustunderstand, err-soap12-mustunderstand); a VersionMismatch fault carries the SOAP 1.2
 * Upgrade header listing both supported envelopes (captures: err-soap11-not-envelope).
 */
export function faultDocument(version: SoapVersion, fault: Fault): string {
  const header = fault.kind === 'versionMismatch' ? UPGRADE_HEADER : '';
  const body = version === '1.1' ? soap11Fault(fault) : soap12Fault(fault);
  return `${envelopeStart(version)}${header}<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

function soap11Fault(fault: Fault): string {
  const detail = fault.kind === 'mustUnderstand' ? '' : '<detail />';
  return (
    `<soap:Fault><faultcode>soap:${FAULT_CODE['1.1'][fault.kind]}</faultcode>` +
    `<faultstring>${escapeXmlText(fault.message)}</faultstring>${detail}</soap:Fault>`
  );
}

function soap12Fault(fault: Fault): string {
  const detail = fault.kind === 'mustUnderstand' ? '' : '<soap:Detail />';
  return (
    `<soap:Fault><soap:Code><soap:Value>soap:${FAULT_CODE['1.2'][fault.kind]}</soap:Value></soap:Code>` +
    `<soap:Reason><soap:Text xml:lang="en">${escapeXmlText(fault.message)}</soap:Text></soap:Reason>${detail}</soap:Fault>`
  );
}

const UPGRADE_HEADER =
  '<soap:Header><soap12:Upgrade xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">' +
  '<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" />' +
  '<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" />' +
  '</soap12:Upgrade></soap:Header>';
