/**
 * The public address of a service as the client reached it (docs/contract.md, "WSDL"): scheme and Host
 * header (with its port) of the request, or X-Forwarded-Proto / X-Forwarded-Host when the settings
 * trust a proxy. A host that is not a plain host[:port] falls back to the local address, so nothing
 * odd from a header ever reaches a document.
 */
import type { Request } from 'express';
import type { TLSSocket } from 'node:tls';
import type { Settings } from '../config';

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The service's own URL: scheme://host + base path + service path. */
export function serviceUrl(req: Request, settings: Pick<Settings, 'trustProxy' | 'basePath'>, servicePath: string): string {
  return `${scheme(req, settings)}://${requestHost(req, settings)}${settings.basePath}${servicePath}`;
}

function scheme(req: Request, settings: Pick<Settings, 'trustProxy'>): 'http' | 'https' {
  const forwarded = settings.trustProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  if (forwarded === 'http' || forwarded === 'https') return forwarded;
  return (req.socket as TLSSocket).encrypted ? 'https' : 'http';
}

/** host[:port] as the client reached it; also the Host line of the help page samples. */
export function requestHost(req: Request, settings: Pick<Settings, 'trustProxy'>): string {
  const forwarded = settings.trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined;
  if (forwarded && HOST.test(forwarded)) return forwarded;
  const header = req.headers.host?.trim();
  if (header && HOST.test(header)) return header;
  return localAddress(req);
}

function localAddress(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  const shown = bare.includes(':') ? `[${bare}]` : bare;
  return `${shown}:${req.socket.localPort ?? 80}`;
}

/** A proxy chain sends "a, b": the first is what the client used. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first ? first : undefined;
}
