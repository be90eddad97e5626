/**
 * Checks a SOAP request before anything runs, in the legacy stack's order (docs/contract.md, "SOAP"):
 * the body, its charset, well-formed XML without DOCTYPE, envelope namespace, Envelope and Body; then
 * the operation it names and its mustUnderstand headers. Throws a SoapFaultError or SoapHttpError.
 */
import { FAULT_TEXT } from '../protocol-texts';
import type { SoapContentType } from './content-type';
import {
  MalformedXmlError,
  readDocument,
  type HeaderBlock,
  type OperationElement,
  type QName,
  type ReadDocument,
  type XmlLimits,
} from './envelope-reader';
import { ENVELOPE_NS, SoapFaultError, SoapHttpError, type SoapVersion } from './soap-version';

export interface SoapRequest {
  version: SoapVersion;
  /** SOAP 1.1: the SOAPAction header, one pair of quotes removed; SOAP 1.2: the Content-Type's action. */
  action?: string;
  headerBlocks: HeaderBlock[];
  /** The first element of the Body; absent for an empty Body. */
  operation?: OperationElement;
}

export interface RawSoapRequest {
  contentType: SoapContentType;
  /** As SoapRequest.action. */
  action?: string;
  body: Buffer;
}

/**
 * `head`: the body is the start of the request only; the document is read up to its operation
 * element, whose values are left unread.
 */
export async function checkRequest(raw: RawSoapRequest, limits: XmlLimits, head = false): Promise<SoapRequest> {
  const { contentType, action } = raw;
  const { version } = contentType;
  if (raw.body.length === 0) throw emptyBody(version, action);
  const text = decode(raw.body, contentType.charset, version, head);
  const document = await parse(text, version, limits, head);
  checkEnvelope(document.root, document.rootChildren, version);
  return { version, action, headerBlocks: document.headerBlocks, operation: document.operation };
}

/**
 * An empty body: 400 for SOAP 1.1 with an action, else a Server fault "Root element is missing."
 * (docs/contract.md, recorded: err-soap11-empty-body, err-soap11-empty-body-no-action, err-soap12-empty-body).
 */
function emptyBody(version: SoapVersion, action: string | undefined): Error {
  if (version === '1.1' && action !== undefined) return new SoapHttpError(400, version);
  return new SoapFaultError(version, 'server', FAULT_TEXT.rootElementMissing());
}

/** An unknown charset is 415; bytes not valid in it are 400, never replaced by U+FFFD (the text would be stored altered). */
function decode(body: Buffer, charset: string | undefined, version: SoapVersion, head: boolean): string {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset ?? sniffCharset(body), { fatal: true });
  } catch {
    throw new SoapHttpError(415, version);
  }
  try {
    // The start of a body may end inside a character: streaming leaves that one out.
    return decoder.decode(body, { stream: head });
  } catch {
    throw new SoapHttpError(400, version);
  }
}

/** Without a charset: the BOM, else the XML declaration's encoding, else UTF-8 (XML 1.0 appendix F, as .NET reads it). */
function sniffCharset(body: Buffer): string {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  const declaration = /^(?:\xEF\xBB\xBF)?<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
    body.subarray(0, 200).toString('latin1'),
  );
  return declaration?.[1] ?? 'utf-8';
}

/**
 * Malformed XML: 400. A SOAP 1.1 envelope sent as application/soap+xml is 415, decided on the root
 * alone (docs/contract.md, recorded: var-soap11-body-to-soap12-ct, err-soap12-malformed-xml-11ns).
 */
async function parse(text: string, version: SoapVersion, limits: XmlLimits, head: boolean): Promise<ReadDocument> {
  const refuseSoap11UnderSoap12 = (root: QName) => {
    if (version === '1.2' && root.ns === ENVELOPE_NS['1.1']) throw new SoapHttpError(415, '1.1');
  };
  try {
    return await readDocument(text, [ENVELOPE_NS[version]], limits, refuseSoap11UnderSoap12, head);
  } catch (error) {
    if (error instanceof MalformedXmlError) throw new SoapHttpError(400, version);
    throw error;
  }
}

/**
 * A root outside this version's envelope namespace is a VersionMismatch fault, always in the SOAP 1.1
 * shape (docs/contract.md, recorded: err-soap11-not-envelope, err-soap12-not-envelope).
 */
function checkEnvelope(root: QName, children: readonly QName[], version: SoapVersion): void {
  const envelopeNs = ENVELOPE_NS[version];
  if (root.ns !== envelopeNs)
    throw new SoapFaultError('1.1', 'versionMismatch', FAULT_TEXT.versionMismatch(root.ns, ENVELOPE_NS['1.1']));
  if (root.local !== 'Envelope') throw new SoapFaultError(version, 'client', FAULT_TEXT.missingEnvelope());
  const hasBody = children.some((child) => child.local === 'Body' && child.ns === envelopeNs);
  if (!hasBody) throw new SoapFaultError(version, 'client', FAULT_TEXT.missingBody());
}

/**
 * The operation a request names: its action must equal ns + op exactly; without one, the first Body
 * element. With an action the Body element must match it, or the method would be chosen by one and its
 * arguments read from the other.
 */
export interface OperationTable {
  namespace: string;
  operations: ReadonlyMap<string, unknown>;
}

export function resolveOperation(table: OperationTable, request: SoapRequest): string {
  return request.action === undefined ? byBodyElement(table, request) : byAction(table, request, request.action);
}

function byAction(table: OperationTable, request: SoapRequest, action: string): string {
  const operation = operationOfAction(table, action);
  if (operation === undefined) {
    const message = request.version === '1.1' ? FAULT_TEXT.unknownSoapAction(action) : FAULT_TEXT.unknownAction(action);
    throw new SoapFaultError(request.version, 'client', message);
  }
  const element = request.operation;
  if (element && (element.local !== operation || element.ns !== table.namespace)) {
    throw new ActionMismatchError(
      request.version,
      'client',
      FAULT_TEXT.actionBodyMismatch(action, element.local, element.ns),
    );
  }
  return operation;
}

/** An action that names one operation and a Body that holds another: refused here, where ASMX runs the action's (docs/integrators.md). */
export class ActionMismatchError extends SoapFaultError {}

export function operationOfAction(table: OperationTable, action: string): string | undefined {
  if (!action.startsWith(table.namespace)) return undefined;
  const operation = action.slice(table.namespace.length);
  return table.operations.has(operation) ? operation : undefined;
}

/** SOAP 1.2 names an unknown element (.NET's text); otherwise "without a valid action" (recorded: err-soap11-unknown-op-no-soapaction). */
function byBodyElement(table: OperationTable, request: SoapRequest): string {
  const element = request.operation;
  if (element && element.ns === table.namespace && table.operations.has(element.local)) return element.local;
  if (element && request.version === '1.2') {
    throw new SoapFaultError('1.2', 'client', FAULT_TEXT.unknownRequestElement(element.local, element.ns));
  }
  throw new SoapFaultError(request.version, 'client', FAULT_TEXT.noValidAction());
}

/**
 * This service understands no header: a block addressed to it with mustUnderstand="1" or "true" is a
 * MustUnderstand fault; blocks for another actor/role are left alone.
 */
const ROLE_ATTRIBUTE: Record<SoapVersion, string> = { '1.1': 'actor', '1.2': 'role' };

const ROLES_OF_THIS_NODE: Record<SoapVersion, readonly string[]> = {
  '1.1': ['http://schemas.xmlsoap.org/soap/actor/next'],
  '1.2': [
    'http://www.w3.org/2003/05/soap-envelope/role/next',
    'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver',
  ],
};

export function checkMustUnderstand(version: SoapVersion, blocks: readonly HeaderBlock[]): void {
  const notUnderstood = blocks.find((block) => mustUnderstand(version, block) && addressedHere(version, block));
  if (notUnderstood)
    throw new SoapFaultError(version, 'mustUnderstand', FAULT_TEXT.headerNotUnderstood(notUnderstood.name));
}

function envelopeAttribute(version: SoapVersion, block: HeaderBlock, local: string): string | undefined {
  return block.attributes.find((a) => a.local === local && a.ns === ENVELOPE_NS[version])?.value.trim();
}

function mustUnderstand(version: SoapVersion, block: HeaderBlock): boolean {
  const value = envelopeAttribute(version, block, 'mustUnderstand');
  return value === '1' || value === 'true';
}

function addressedHere(version: SoapVersion, block: HeaderBlock): boolean {
  const role = envelopeAttribute(version, block, ROLE_ATTRIBUTE[version]);
  return role === undefined || role === '' || ROLES_OF_THIS_NODE[version].includes(role);
}
