/**
 * The public address of a service (docs/operations.md, "PUBLIC_URL"): PUBLIC_URL, else the request's
 * scheme and Host, or the last X-Forwarded entry when a proxy is trusted. A host that is not a plain
 * host[:port] falls back to the local address, so nothing odd from a header reaches a document.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Settings } from '../config';
import { lastForwarded } from '../request-context/forwarded';

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

type AddressSettings = Pick<Settings, 'trustProxy' | 'publicUrl'>;

/** Where the server's root is reached from outside; `prefix`: PUBLIC_URL's own path, ahead of BASE_PATH. */
export function publicAddress(
  req: IncomingMessage,
  settings: AddressSettings,
): { scheme: 'http' | 'https'; host: string; prefix: string } {
  if (settings.publicUrl !== undefined) {
    const url = new URL(settings.publicUrl);
    return {
      scheme: url.protocol === 'https:' ? 'https' : 'http',
      host: url.host,
      prefix: url.pathname.replace(/\/+$/, ''),
    };
  }
  return { scheme: scheme(req, settings), host: requestHost(req, settings), prefix: '' };
}

/** The service's own URL: scheme://host + PUBLIC_URL's path + base path + service path. */
export function serviceUrl(
  req: IncomingMessage,
  settings: AddressSettings & Pick<Settings, 'basePath'>,
  servicePath: string,
): string {
  const { scheme, host, prefix } = publicAddress(req, settings);
  return `${scheme}://${host}${prefix}${settings.basePath}${servicePath}`;
}

/** The server's own origin (scheme://host[:port], default port left out) as its clients reach it. */
export function ownOrigin(req: IncomingMessage, settings: AddressSettings): string {
  const { scheme, host } = publicAddress(req, settings);
  return new URL(`${scheme}://${host}`).origin;
}

function scheme(req: IncomingMessage, settings: Pick<Settings, 'trustProxy'>): 'http' | 'https' {
  const forwarded = settings.trustProxy ? lastForwarded(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  if (forwarded === 'http' || forwarded === 'https') return forwarded;
  return (req.socket as TLSSocket).encrypted ? 'https' : 'http';
}

/** host[:port] as the client reached it. */
function requestHost(req: IncomingMessage, settings: Pick<Settings, 'trustProxy'>): string {
  const forwarded = settings.trustProxy ? lastForwarded(req.headers['x-forwarded-host']) : undefined;
  if (forwarded && HOST.test(forwarded)) return forwarded;
  const header = req.headers.host?.trim();
  if (header && HOST.test(header)) return header;
  return localAddress(req);
}

function localAddress(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  const shown = bare.includes(':') ? `[${bare}]` : bare;
  return `${shown}:${req.socket.localPort ?? 80}`;
}
