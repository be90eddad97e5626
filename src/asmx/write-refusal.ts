/**
 * Writes a browser could be made to send for its user (docs/behaviour.md, "Writes and browsers"). With
 * authentication on, a browser that holds a user's Basic credentials sends them with any request to
 * the host, an <img> GET or a form POST from another site included. So, only when AUTH_MODE is not
 * off and only for an operation that changes data:
 * - HTTP GET is refused (405, Allow: POST): a link or an image must not change anything;
 * - a request a browser marks as sent from another page than the server's own (Sec-Fetch-Site other
 *   than same-origin or none, or an Origin other than the server's own, "null" included) is refused
 *   with 403, whatever the binding.
 * The mobile app and SOAP clients send neither header. Each binding answers the refusal in its own
 * form; this module knows only the operation's write flag and the request's headers.
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
export function writeRefusal(operation: { name: string; write: boolean }, req: IncomingMessage, settings: RefusalSettings): WriteRefusal | undefined {
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
