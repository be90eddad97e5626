/**
 * Writes a browser could be made to send for its user (docs/behaviour.md, "Writes and browsers"): with
 * authentication on, a browser sends a user's Basic credentials with any request to the host. So a
 * write by GET is 405, and one a browser marks as from another site 403.
 */
import type { IncomingMessage } from 'node:http';
import type { Settings } from '../config';
import { FAULT_TEXT, HTTP_TEXT } from '../protocol-texts';
import { ownOrigin } from './request-url';

export interface WriteRefusal {
  status: 403 | 405;
  message: string;
  /** The Allow header of a 405. */
  allow?: string;
}

type RefusalSettings = Pick<Settings, 'authMode' | 'trustProxy' | 'publicUrl'>;

/** Why this request may not run the operation, or undefined when it may. */
export function writeRefusal(
  operation: { name: string; write: boolean },
  req: IncomingMessage,
  settings: RefusalSettings,
): WriteRefusal | undefined {
  if (!operation.write || settings.authMode === 'off') return undefined;
  if (req.method === 'GET') return { status: 405, message: HTTP_TEXT.writeNeedsPost(operation.name), allow: 'POST' };
  if (fromAnotherSite(req, settings)) return { status: 403, message: FAULT_TEXT.crossSiteWrite() };
  return undefined;
}

/** Only browsers send these headers; a value that is not the page's own origin counts as foreign. */
function fromAnotherSite(req: IncomingMessage, settings: RefusalSettings): boolean {
  const site = headerValue(req.headers['sec-fetch-site'])?.toLowerCase();
  // same-site is refused too: a sibling subdomain is another origin, which may be someone else's.
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = headerValue(req.headers.origin);
  if (origin === undefined) return false;
  return !URL.canParse(origin) || new URL(origin).origin !== ownOrigin(req, settings);
}

function headerValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  return value?.trim();
}
