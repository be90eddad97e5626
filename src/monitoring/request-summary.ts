/** The probes' paths, which the log, the metrics and the traces treat apart from the services' requests. */
import type { IncomingMessage } from 'node:http';

/** At the root, in any letter case, a query aside. */
export const OPS_PATHS = ['/health', '/ready', '/metrics'] as const;
export type OpsPath = (typeof OPS_PATHS)[number];

const LONGEST_OPS_PATH = Math.max(...OPS_PATHS.map((path) => path.length));

/** The operational endpoint a URL's path names, if any (the probes answer GET and HEAD to it). */
export function opsPathOf(url: string): OpsPath | undefined {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.length > LONGEST_OPS_PATH) return undefined;
  const lower = path.toLowerCase();
  return OPS_PATHS.find((ops) => ops === lower);
}

/** A request to an operational endpoint: not counted among the service's requests, logged at debug. */
export function isOpsRequest(req: IncomingMessage): boolean {
  return opsPathOf(req.url ?? '') !== undefined;
}
