/**
 * The contract checker's vocabulary: a check is one named, independent assertion about a running
 * server, made over real HTTP (docs/contract.md). "Legacy" checks hold for the ASMX server this project
 * replaces as well as for this one; "extension" checks hold only for this project's deliberate
 * differences (docs/integrators.md, "Deliberate differences") and can be left out for a legacy server.
 */
import type { HttpExchange, HttpRequest } from './http-client';
import type { XmlNode } from './xml';

/** Which part of the contract a check exercises; the reporter groups by it. */
export type Binding = 'wsdl' | 'disco' | 'help' | 'soap11' | 'soap12' | 'httpget' | 'httppost' | 'http';

export interface CheckOptions {
  /** scheme://host[:port] of the server, e.g. http://127.0.0.1:8080 (a trailing slash is ignored). */
  baseUrl: string;
  /** The API_NAMESPACE the server was started with (default http://tempuri.org/). */
  apiNamespace: string;
  /** The SYNC_NAMESPACE the server was started with (default http://tempuri.org/). */
  syncNamespace: string;
  /** Prefix before /API/... ('' or '/Something', no trailing slash). */
  basePath: string;
  /** Run the checks only this project's extensions satisfy (false for the legacy ASMX server). */
  includeExtensions: boolean;
  /** Which contract to check: the legacy paths, or the typed v2 contract at /API/v2/ (docs/v2.md). */
  contract: 'legacy' | 'v2';
  /** Milliseconds one request may take (default 15000). */
  timeoutMs?: number;
}

/** One of the two services of the contract (wsdl/), as the checks address it. */
export interface ServiceTarget {
  name: 'MobileAppWebService' | 'SyncCustomers';
  namespace: string;
  /** basePath + /API/<name>.asmx (/API/v2/<name>.asmx when the v2 contract is checked) */
  path: string;
  /** baseUrl + path */
  url: string;
}

export interface CheckContext {
  options: CheckOptions;
  service(name: ServiceTarget['name']): ServiceTarget;
  /** One request; relative paths are resolved against baseUrl. */
  send(request: HttpRequest): Promise<HttpExchange>;
  /** The service's ?wsdl document, fetched once per run and parsed. */
  wsdl(name: ServiceTarget['name']): Promise<XmlNode>;
}

export interface Check {
  /** Stable, unique, e.g. soap11.MobileAppWebService.getPCNList */
  id: string;
  title: string;
  binding: Binding;
  extension: boolean;
  /** Resolves when the server meets the contract; rejects (CheckFailure) with what differs. */
  run(ctx: CheckContext): Promise<void>;
}

export type CheckStatus = 'pass' | 'fail';

export interface CheckResult {
  id: string;
  title: string;
  binding: Binding;
  extension: boolean;
  status: CheckStatus;
  /** What differed, for a failed check. */
  detail?: string;
  millis: number;
}

export interface CheckReport {
  options: CheckOptions;
  results: CheckResult[];
  passed: number;
  failed: number;
  /** Extension checks not run (includeExtensions false). */
  leftOut: number;
}
