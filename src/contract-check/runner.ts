/**
 * Runs the checks against one server, one after the other (each is independent and opens its own
 * connections), and collects a result per check. A check that throws anything is a failure with
 * the message; the run itself never throws for a server's answer.
 */
import { CONTRACT_CHECKS, V2_CHECKS } from './checks';
import { sendRequest, type HttpExchange } from './http-client';
import type { Check, CheckContext, CheckOptions, CheckReport, CheckResult, ServiceTarget } from './types';
import { parseXmlDocument, type XmlNode } from './xml';

export const DEFAULT_NAMESPACE = 'http://tempuri.org/';
/** The v2 services' default namespace (the server's API_V2_NAMESPACE and SYNC_V2_NAMESPACE). */
export const DEFAULT_V2_NAMESPACE = 'http://tempuri.org/v2/';
const DEFAULT_TIMEOUT_MS = 15_000;

export interface RunOptions {
  /** Called after each check (the CLI prints a line per check as it goes). */
  onResult?: (result: CheckResult) => void;
  /** The checks to run (default: all of CONTRACT_CHECKS). */
  checks?: readonly Check[];
}

export async function runContractChecks(options: CheckOptions, run: RunOptions = {}): Promise<CheckReport> {
  const all = run.checks ?? (options.contract === 'v2' ? V2_CHECKS : CONTRACT_CHECKS);
  assertUniqueIds(all);
  const selected = all.filter((check) => options.includeExtensions || !check.extension);
  const ctx = createContext(options);
  const results: CheckResult[] = [];
  for (const check of selected) {
    const result = await runOne(check, ctx);
    results.push(result);
    run.onResult?.(result);
  }
  const failed = results.filter((result) => result.status === 'fail').length;
  return { options, results, passed: results.length - failed, failed, leftOut: all.length - selected.length };
}

async function runOne(check: Check, ctx: CheckContext): Promise<CheckResult> {
  const started = Date.now();
  const base = { id: check.id, title: check.title, binding: check.binding, extension: check.extension };
  try {
    await check.run(ctx);
    return { ...base, status: 'pass', millis: Date.now() - started };
  } catch (error) {
    return {
      ...base,
      status: 'fail',
      detail: error instanceof Error ? error.message : String(error),
      millis: Date.now() - started,
    };
  }
}

export function createContext(options: CheckOptions): CheckContext {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const wsdlCache = new Map<string, Promise<XmlNode>>();
  const service = (name: ServiceTarget['name']): ServiceTarget => {
    const path = `${options.basePath}/API/${options.contract === 'v2' ? 'v2/' : ''}${name}.asmx`;
    const namespace = name === 'SyncCustomers' ? options.syncNamespace : options.apiNamespace;
    return { name, namespace, path, url: baseUrl + path };
  };
  const send = (request: Parameters<CheckContext['send']>[0]): Promise<HttpExchange> =>
    sendRequest(baseUrl, request, timeout);
  const wsdl = (name: ServiceTarget['name']): Promise<XmlNode> => {
    let cached = wsdlCache.get(name);
    if (!cached) {
      cached = fetchWsdl(send, service(name));
      wsdlCache.set(name, cached);
    }
    return cached;
  };
  return { options: { ...options, baseUrl }, service, send, wsdl };
}

async function fetchWsdl(send: CheckContext['send'], service: ServiceTarget): Promise<XmlNode> {
  const exchange = await send({ method: 'GET', path: `${service.path}?wsdl` });
  if (exchange.status !== 200) throw new Error(`GET ${service.path}?wsdl answered ${exchange.status}`);
  return parseXmlDocument(exchange.body);
}

function assertUniqueIds(checks: readonly Check[]): void {
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) throw new Error(`two checks share the id ${check.id}`);
    seen.add(check.id);
  }
}
