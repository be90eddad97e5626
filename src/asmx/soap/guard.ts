/**
 * Checks a SOAP request before anything runs, in the order the legacy stack does (docs/contract.md, "SOAP";
 * docs/contract.md, "Recorded legacy answers"): after the media type (the binding reads it once and
 * refuses anything but a SOAP one with 415), the body, well-formed XML without DOCTYPE, envelope
 * namespace, Envelope and Body. Returns what routing needs, or throws a SoapFaultError / SoapHttpError.
 * Bytes that are not valid in the body's charset, characters XML forbids, and documents deeper or larger
 * than the limits are malformed input: 400 like any malformed XML (docs/operations.md, "Input limits").
 */
import { FAULT_TEXT } from '../../protocol-texts';
import { ENVELOPE_NS, type SoapVersion } from '../faults';
import { parseSoapContentType, unquote, type SoapContentType } from './content-type';
import { MalformedXmlError, readDocument, type HeaderBlock, type OperationElement, type QName, type ReadDocument, type XmlLimits } from './envelope-reader';
import { SoapFaultError, SoapHttpError } from './rejections';

export interface SoapRequest {
  version: SoapVersion;
  /**
   * SOAP 1.1: the SOAPAction header with one pair of surrounding quotes removed ('' when the header is
   * empty, undefined when it is absent). SOAP 1.2: the action parameter of the Content-Type.
   */
  action?: string;
  headerBlocks: HeaderBlock[];
  /** The first element of the Body; absent for an empty Body. */
  operation?: OperationElement;
}

export interface RawSoapRequest {
  /** The request's SOAP media type, read once by the binding (a request without one is 415 before this). */
  contentType: SoapContentType;
  soapAction?: string;
  body: Buffer;
}

/** The media type alone decides the version; anything but text/xml or application/soap+xml is 415. */
export function soapVersionOf(contentType: string | undefined): SoapVersion | undefined {
  return parseSoapContentType(contentType)?.version;
}

export async function checkRequest(raw: RawSoapRequest, limits: XmlLimits): Promise<SoapRequest> {
  const { contentType } = raw;
  const { version } = contentType;
  const action = version === '1.1' ? soapActionOf(raw.soapAction) : contentType.action;
  if (raw.body.length === 0) throw emptyBody(version, action);
  const text = decode(raw.body, contentType.charset, version);
  const document = await parse(text, version, limits);
  checkEnvelope(document.root, document.rootChildren, version);
  return { version, action, headerBlocks: document.headerBlocks, operation: document.operation };
}

function soapActionOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : unquote(header);
}

/**
 * An empty body: ASMX answers a SOAP 1.1 request that names its action with 400 (XmlException, like
 * malformed XML), and everything else with a Server fault "Root element is missing." (docs/contract.md, recorded:
 * err-soap11-empty-body, err-soap11-empty-body-no-action, err-soap12-empty-body). That last one is a
 * SOAP 1.2 fault even for a text/xml request there; here a text/xml request is answered as SOAP 1.1,
 * as docs/contract.md asks for every text/xml request without SOAPAction.
 */
function emptyBody(version: SoapVersion, action: string | undefined): Error {
  if (version === '1.1' && action !== undefined) return new SoapHttpError(400, version);
  return new SoapFaultError(version, 'server', FAULT_TEXT.rootElementMissing());
}

/**
 * A charset this server cannot decode is an unsupported media type (415). Bytes that are not valid in
 * the charset (an invalid UTF-8 sequence, a lone UTF-16 surrogate) are malformed input (400): they are
 * never replaced by U+FFFD, which would store the text altered.
 */
function decode(body: Buffer, charset: string | undefined, version: SoapVersion): string {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset ?? sniffCharset(body), { fatal: true });
  } catch {
    throw new SoapHttpError(415, version);
  }
  try {
    return decoder.decode(body);
  } catch {
    throw new SoapHttpError(400, version);
  }
}

/**
 * Without a charset parameter: the byte order mark, else the XML declaration's encoding, else UTF-8
 * (XML 1.0 appendix F, as .NET's XmlReader reads a request).
 */
function sniffCharset(body: Buffer): string {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const declaration = /^(?:\xEF\xBB\xBF)?<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(body.subarray(0, 200).toString('latin1'));
  return declaration?.[1] ?? 'utf-8';
}

/**
 * Malformed XML and any DOCTYPE: 400 with an empty body. A SOAP 1.1 envelope sent as
 * application/soap+xml is 415, decided on the root element alone, before the rest of the document is
 * read (docs/contract.md, recorded: var-soap11-body-to-soap12-ct, err-soap12-malformed-xml-11ns).
 */
async function parse(text: string, version: SoapVersion, limits: XmlLimits): Promise<ReadDocument> {
  const refuseSoap11UnderSoap12 = (root: QName) => {
    if (version === '1.2' && root.ns === ENVELOPE_NS['1.1']) throw new SoapHttpError(415, '1.1');
  };
  try {
    return await readDocument(text, [ENVELOPE_NS[version]], limits, refuseSoap11UnderSoap12);
  } catch (error) {
    if (error instanceof MalformedXmlError) throw new SoapHttpError(400, version);
    throw error;
  }
}

/**
 * A root element outside this version's envelope namespace is a VersionMismatch fault, always in the
 * SOAP 1.1 shape with the Upgrade header, as ASMX answers it for both content types (docs/contract.md, recorded:
 * err-soap11-not-envelope, err-soap12-not-envelope). A SOAP 1.2 envelope sent as text/xml is one too:
 * docs/contract.md asks that the envelope namespace match the content type.
 */
function checkEnvelope(root: QName, children: readonly QName[], version: SoapVersion): void {
  const envelopeNs = ENVELOPE_NS[version];
  if (root.ns !== envelopeNs) throw new SoapFaultError('1.1', 'versionMismatch', FAULT_TEXT.versionMismatch(root.ns, ENVELOPE_NS['1.1']));
  if (root.local !== 'Envelope') throw new SoapFaultError(version, 'client', FAULT_TEXT.missingEnvelope());
  const hasBody = children.some((child) => child.local === 'Body' && child.ns === envelopeNs);
  if (!hasBody) throw new SoapFaultError(version, 'client', FAULT_TEXT.missingBody());
}
