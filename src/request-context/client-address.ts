/**
 * The address a request came from. With TRUST_PROXY, the last X-Forwarded-For entry, the one the
 * trusted proxy appended: the client writes the others, and could pick a fresh one per request.
 */
import type { IncomingMessage } from 'node:http';
import { lastForwarded } from './forwarded';

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = lastForwarded(req.headers['x-forwarded-for']);
    if (forwarded) return normalize(forwarded);
  }
  return normalize(req.socket.remoteAddress ?? 'unknown');
}

/** An IPv4 client reached over an IPv6 socket (::ffff:10.0.0.1) is the same client as 10.0.0.1. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
}

/** Whether a request comes from the machine the server runs on (a loopback address), as clientAddress sees it. */
export function fromLocalMachine(req: IncomingMessage, trustProxy: boolean): boolean {
  const address = clientAddress(req, trustProxy);
  return address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address);
}
