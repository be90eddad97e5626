/**
 * What an exchange between a client and an ASMX server is, read from the request: which service,
 * contract, operation and binding it calls, and whether it may change data. The server's own
 * classifier decides (src/classifier, docs/architecture.md "How a request is classified"), with the
 * settings the server would have (base path, namespaces, XML bounds), so the proxy names the
 * operation this server would run, and takes anything it would refuse for a write.
 */
import { classifyRequest, mayWrite, serviceTable, type ServiceTable } from '../classifier';
import { ActionMismatchError } from '../classifier/soap-request';
import { loadSettings, type Settings } from '../config';
import { serviceShapes, type ServiceShape } from '../services/mobile-app';

/** A call's operation when it names no declared one: made-up names sent by clients add no report rows. */
export const UNDECLARED = '(undeclared)';

/** The report's binding names (docs/cutover.md, "The report"): the classifier's httpget and httppost are get and post here. */
export type Binding = 'soap11' | 'soap12' | 'get' | 'post' | 'document';

export interface Call {
  /** The service's name (MobileAppWebService, SyncCustomers), or '' for another path. */
  service: string;
  contract: 'legacy' | 'v2';
  /**
   * The operation this server would run; for a call it would refuse, the declared operation its path
   * or action names, else UNDECLARED. For a document what it is: wsdl, disco, help, openapi or other.
   */
  operation: string;
  binding: Binding;
  /** A declared write, or anything this server would refuse or cannot classify: never sent twice. */
  write: boolean;
  /** A SOAP action naming another operation than the Body's (a deliberate difference, expected.ts). */
  actionMismatch?: boolean;
}

export interface RequestHead {
  method: string;
  /** The path and query, as on the request line. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The server settings that decide how a request is read; the proxy and replay take them as options. */
export type TrafficSettings = Pick<
  Settings,
  'basePath' | 'apiNamespace' | 'syncNamespace' | 'apiV2Namespace' | 'syncV2Namespace' | 'maxXmlDepth' | 'maxXmlNodes'
>;

/**
 * The settings from the server's variables (BASE_PATH, API_NAMESPACE, SYNC_NAMESPACE, API_V2_NAMESPACE,
 * SYNC_V2_NAMESPACE, MAX_XML_DEPTH, MAX_XML_NODES), checked and defaulted as the server does; a bad
 * value throws a SettingsError naming it.
 */
export function trafficSettings(variables: Record<string, string | undefined> = {}): TrafficSettings {
  const { basePath, apiNamespace, syncNamespace, apiV2Namespace, syncV2Namespace, maxXmlDepth, maxXmlNodes } =
    loadSettings(variables);
  return { basePath, apiNamespace, syncNamespace, apiV2Namespace, syncV2Namespace, maxXmlDepth, maxXmlNodes };
}

/** What classifying needs, built once: both contracts' services, whichever the servers behind serve. */
export interface Traffic {
  table: ServiceTable<ServiceShape>;
  limits: { maxDepth: number; maxNodes: number };
  /** The OpenAPI document's path, lower case (it is this server's own: the legacy one answers 404). */
  openApiPath: string;
}

export function trafficOf(settings: TrafficSettings = trafficSettings()): Traffic {
  return {
    table: serviceTable(settings.basePath, serviceShapes(settings)),
    limits: { maxDepth: settings.maxXmlDepth, maxNodes: settings.maxXmlNodes },
    openApiPath: `${settings.basePath}/API/openapi.json`.toLowerCase(),
  };
}

/** `body`: the request's body as sent (a SOAP call's operation is in its envelope). */
export async function classify(traffic: Traffic, request: RequestHead, body: Buffer): Promise<Call> {
  const { kind, named, refusal } = await classifyRequest(traffic.table, request, body, traffic.limits);
  const write = mayWrite(request, kind);
  if (kind.kind === 'none')
    return {
      service: '',
      contract: 'legacy',
      operation: request.url.split('?')[0].toLowerCase() === traffic.openApiPath ? 'openapi' : 'other',
      binding: 'document',
      write,
    };
  const { name: service, contract } = kind.service;
  if (kind.kind === 'document')
    return {
      service,
      contract,
      operation: kind.operation === 'op' ? 'help' : kind.operation,
      binding: 'document',
      write,
    };
  if (kind.kind === 'method' || kind.binding === 'other')
    return { service, contract, operation: 'other', binding: 'document', write };
  const operation = kind.operation ?? named ?? UNDECLARED;
  if (kind.kind === 'soap')
    return {
      service,
      contract,
      operation,
      binding: kind.binding,
      write,
      actionMismatch: refusal instanceof ActionMismatchError,
    };
  return { service, contract, operation, binding: kind.binding === 'httpget' ? 'get' : 'post', write };
}

export function header(headers: RequestHead['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The media type and charset, the way two servers may spell them differently and mean the same. */
export function mediaType(answer: Pick<RequestHead, 'headers'>): string {
  const value = header(answer.headers, 'content-type').toLowerCase();
  const [type, ...parameters] = value.split(';').map((part) => part.trim());
  const charset = parameters.find((part) => part.startsWith('charset='));
  return charset === undefined ? type : `${type}; ${charset.replace(/"/g, '')}`;
}
