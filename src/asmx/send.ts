/**
 * An answer whose bytes are all known: its status, Content-Type and Content-Length, and the body given
 * to one end() as a string, so that Node writes the headers and the body in one socket write (a Buffer
 * would go as a second chunk). The bindings' whole answers (SOAP responses and faults, JSON, plain
 * errors) all go out through it; a HEAD request gets the headers alone.
 */
import type { ServerResponse } from 'node:http';

export function sendWhole(res: ServerResponse, status: number, contentType: string, body: string, cacheControl?: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(Buffer.byteLength(body, 'utf8')));
  if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
  if (res.req.method === 'HEAD') res.end();
  else res.end(body, 'utf8');
}
