/** SOAP faults byte for byte as the legacy ASMX stack writes them; their texts are in src/protocol-texts.ts. */
import { FAULT_TEXT } from '../protocol-texts';
import { ENVELOPE_NS, type FaultKind, type SoapVersion } from '../classifier/soap-version';
import { escapeXmlText } from './xml-escape';

export { ENVELOPE_NS };
export type { FaultKind, SoapVersion };

/** The response Content-Type of each version, whatever charset or action the request carried. */
export const SOAP_CONTENT_TYPE: Record<SoapVersion, string> = {
  '1.1': 'text/xml; charset=utf-8',
  '1.2': 'application/soap+xml; charset=utf-8',
};

const FAULT_CODE: Record<SoapVersion, Record<FaultKind, string>> = {
  '1.1': { client: 'Client', server: 'Server', versionMismatch: 'VersionMismatch', mustUnderstand: 'MustUnderstand' },
  '1.2': { client: 'Sender', server: 'Receiver', versionMismatch: 'VersionMismatch', mustUnderstand: 'MustUnderstand' },
};

/** The fault code as the document writes it (soap:Client, soap:Sender, ...), for the request log. */
export function faultCodeOf(version: SoapVersion, kind: FaultKind): string {
  return `soap:${FAULT_CODE[version][kind]}`;
}

export interface Fault {
  kind: FaultKind;
  message: string;
  /** The detail element's content, an XML fragment (the v2 contract's ServiceError); empty by default. */
  detail?: string;
}

/** Every failure that is the server's own: Server/Receiver with a fixed text. */
export const UNEXPECTED_FAULT: Fault = { kind: 'server', message: FAULT_TEXT.unexpected() };

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
/** The two namespace declarations ASMX puts on every envelope, after xmlns:soap. */
export const XSI_XSD =
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** The envelope start both versions share, byte for byte as ASMX writes it. */
export function envelopeStart(version: SoapVersion): string {
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}" ${XSI_XSD}>`;
}

/**
 * The whole fault document. MustUnderstand faults carry no detail element (docs/contract.md, recorded:
 * err-soap11-mustunderstand, err-soap12-mustunderstand); a VersionMismatch fault carries the SOAP 1.2
 * Upgrade header listing both supported envelopes (docs/contract.md, recorded: err-soap11-not-envelope).
 */
export function faultDocument(version: SoapVersion, fault: Fault): string {
  const header = fault.kind === 'versionMismatch' ? UPGRADE_HEADER : '';
  const body = version === '1.1' ? soap11Fault(fault) : soap12Fault(fault);
  return `${envelopeStart(version)}${header}<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

function soap11Fault(fault: Fault): string {
  const detail =
    fault.kind === 'mustUnderstand' ? '' : fault.detail ? `<detail>${fault.detail}</detail>` : '<detail />';
  return (
    `<soap:Fault><faultcode>soap:${FAULT_CODE['1.1'][fault.kind]}</faultcode>` +
    `<faultstring>${escapeXmlText(fault.message)}</faultstring>${detail}</soap:Fault>`
  );
}

function soap12Fault(fault: Fault): string {
  const detail =
    fault.kind === 'mustUnderstand'
      ? ''
      : fault.detail
        ? `<soap:Detail>${fault.detail}</soap:Detail>`
        : '<soap:Detail />';
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
