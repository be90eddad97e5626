/**
 * What a request is, decided once (docs/architecture.md, "How a request is classified"): which
 * service, contract, binding, SOAP version and operation it calls, and whether that operation writes.
 * The server's dispatcher and the cut-over proxy (src/cutover/traffic.ts) call these same functions,
 * so the proxy names the operation the server would run. The head decides first (before the access
 * guard); a SOAP call's envelope is read after it, by readSoapCall, the one parse the binding uses.
 */
import { parseSoapContentType, unquote, type SoapContentType } from './content-type';
import type { XmlLimits } from './envelope-reader';
import { checkMustUnderstand, checkRequest, operationOfAction, resolveOperation } from './soap-request';
import { SoapHttpError, type SoapVersion } from './soap-version';

/** The binding as logs and metrics name it; `other` is any other method (405, or a protocol error under the .asmx). */
export type Binding = 'soap11' | 'soap12' | 'httpget' | 'httppost' | 'document' | 'other';

/** A service as classifying sees it: the server's service objects, or the proxy's table of the same declarations. */
export interface ServiceShape {
  name: string;
  namespace: string;
  contract: 'legacy' | 'v2';
  /** Under the base path: /API/MobileAppWebService.asmx. */
  path: string;
  operations: ReadonlyMap<string, { write: boolean }>;
}

/** What GET on the .asmx asks for: ?wsdl, ?disco, ?op=<name>, else the help page. */
export type DocumentKind = 'wsdl' | 'disco' | 'op' | 'help';

/**
 * One request as classified. `operation` names a declared operation only (so log labels stay
 * bounded): over SOAP the one its action names until the envelope is read, then the one it calls.
 */
export type RequestKind<S extends ServiceShape = ServiceShape> =
  | {
      kind: 'soap';
      service: S;
      binding: 'soap11' | 'soap12';
      version: SoapVersion;
      contentType?: SoapContentType;
      action?: string;
      operation?: string;
    }
  | { kind: 'http'; service: S; binding: 'httpget' | 'httppost' | 'other'; rest: string; operation?: string }
  | { kind: 'document'; service: S; binding: 'document'; operation: DocumentKind }
  /** Any method but GET and POST on the .asmx itself: 405. */
  | { kind: 'method'; service: S; binding: 'other'; operation?: undefined }
  /** Not under a service: the OpenAPI document, the API pages, or nothing. */
  | { kind: 'none'; service?: undefined; binding?: undefined; operation?: undefined };

export interface ServiceTable<S extends ServiceShape> {
  entries: readonly { service: S; path: string }[];
}

/** `basePath`: the BASE_PATH setting ('' or /Prefix); paths are matched without regard to case, as ASMX does. */
export function serviceTable<S extends ServiceShape>(basePath: string, services: readonly S[]): ServiceTable<S> {
  return { entries: services.map((service) => ({ service, path: (basePath + service.path).toLowerCase() })) };
}

const NONE = { kind: 'none' } as const;

/** What the head says: method, path and the headers that name a SOAP version and action. Reads no body. */
export function classifyHead<S extends ServiceShape>(
  table: ServiceTable<S>,
  method: string,
  url: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): RequestKind<S> {
  const at = url.indexOf('?');
  const pathname = at === -1 ? url : url.slice(0, at);
  const lower = pathname.toLowerCase();
  for (const { service, path } of table.entries) {
    if (lower === path) {
      if (method === 'POST') return soapHead(service, headers);
      if (method === 'GET')
        return {
          kind: 'document',
          service,
          binding: 'document',
          operation: documentRequested(at === -1 ? '' : url.slice(at + 1)),
        };
      return { kind: 'method', service, binding: 'other' };
    }
    if (lower.length > path.length && lower.startsWith(path) && lower.charCodeAt(path.length) === SLASH) {
      // The method name as sent, percent-decoded; it is case-sensitive (docs/contract.md).
      const rest = decoded(pathname.slice(path.length));
      const binding = method === 'GET' ? 'httpget' : method === 'POST' ? 'httppost' : 'other';
      const name = rest.slice(1);
      const operation = binding !== 'other' && service.operations.has(name) ? name : undefined;
      return { kind: 'http', service, binding, rest, operation };
    }
  }
  return NONE;
}

const SLASH = 0x2f;

function decoded(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function soapHead<S extends ServiceShape>(
  service: S,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): RequestKind<S> {
  const contentType = parseSoapContentType(headerOf(headers['content-type']));
  const version = contentType?.version ?? '1.1';
  // SOAP 1.2 carries its action in the Content-Type; a SOAPAction header is SOAP 1.1's alone.
  const soapAction = headerOf(headers.soapaction);
  const action = version === '1.2' ? contentType?.action : soapAction === undefined ? undefined : unquote(soapAction);
  const operation = action === undefined ? undefined : operationOfAction(service, action);
  return {
    kind: 'soap',
    service,
    binding: version === '1.2' ? 'soap12' : 'soap11',
    version,
    contentType,
    action,
    operation,
  };
}

/** Node joins a repeated header into one string (all but Set-Cookie); a header list from elsewhere gives its first. */
function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** ASMX looks at the query keys case-insensitively; ?wsdl wins over ?disco, both over ?op. */
function documentRequested(queryString: string): DocumentKind {
  if (queryString === '') return 'help';
  const keys = [...new URLSearchParams(queryString).keys()].map((key) => key.toLowerCase());
  if (keys.includes('wsdl')) return 'wsdl';
  if (keys.includes('disco')) return 'disco';
  return keys.includes('op') ? 'op' : 'help';
}

export interface SoapCall {
  operation: string;
  version: SoapVersion;
  /** The operation element's children as (local name, text); empty when only the head of the body was read. */
  values: [string, string][];
}

/**
 * Reads a SOAP request's envelope and names the operation it calls, or throws the refusal the
 * binding answers (SoapFaultError, SoapHttpError). `head`: `body` is only the start of the request;
 * reading stops at the operation element (the cut-over proxy's use, bounded by what it hands in).
 */
export async function readSoapCall(
  kind: Extract<RequestKind, { kind: 'soap' }>,
  body: Buffer,
  limits: XmlLimits,
  head = false,
): Promise<SoapCall> {
  if (!kind.contentType) throw new SoapHttpError(415, '1.1');
  const request = await checkRequest({ contentType: kind.contentType, action: kind.action, body }, limits, head);
  const operation = resolveOperation(kind.service, request);
  checkMustUnderstand(request.version, request.headerBlocks);
  return { operation, version: request.version, values: request.operation?.values ?? [] };
}

/** How much of a SOAP body the proxy reads to find its operation: its envelope's head, not its data. */
export const ENVELOPE_HEAD_BYTES = 64 * 1024;

/** A request classified whole: `kind` as the server would take it; `named`, the operation its head names; `refusal`, why this server would refuse a SOAP call. */
export interface ClassifiedRequest<S extends ServiceShape> {
  kind: RequestKind<S>;
  named?: string;
  refusal?: unknown;
}

/**
 * The whole classification of a request whose body is at hand (the cut-over proxy): the head, then
 * for SOAP the envelope, at most its first ENVELOPE_HEAD_BYTES. kind.operation is left out wherever
 * this server would refuse the call or it cannot be told (a compressed body, an envelope cut short).
 */
export async function classifyRequest<S extends ServiceShape>(
  table: ServiceTable<S>,
  request: { method: string; url: string; headers: Readonly<Record<string, string | string[] | undefined>> },
  body: Buffer,
  limits: XmlLimits,
): Promise<ClassifiedRequest<S>> {
  const kind = classifyHead(table, request.method, request.url, request.headers);
  if (kind.kind !== 'soap') return { kind };
  const named = kind.operation;
  const encoding = headerOf(request.headers['content-encoding'])?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity')
    return { kind: { ...kind, operation: undefined }, named };
  try {
    // A body within the bound is read whole, as the server reads it; a longer one up to its operation element.
    const head = body.length > ENVELOPE_HEAD_BYTES;
    const call = await readSoapCall(kind, head ? body.subarray(0, ENVELOPE_HEAD_BYTES) : body, limits, head);
    return { kind: { ...kind, operation: call.operation }, named };
  } catch (refusal) {
    return { kind: { ...kind, operation: undefined }, named, refusal };
  }
}

/** Whether this request may change data: a declared read or a document does not; anything else may, refused or unknown calls included. */
export function mayWrite(request: { method: string; url: string }, kind: RequestKind): boolean {
  if (kind.kind === 'document') return false;
  if (kind.kind === 'none') return !readsNothingServed(request);
  if (kind.operation === undefined) return true;
  return kind.service.operations.get(kind.operation)?.write !== false;
}

/**
 * A GET or HEAD for a path this server does not serve reads nothing, unless its path names an .asmx
 * in some spelling (percent-encoded, say) that another server may still route to a service.
 */
function readsNothingServed(request: { method: string; url: string }): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0];
  return !decoded(pathname).toLowerCase().includes('.asmx') && !pathname.includes('%');
}
