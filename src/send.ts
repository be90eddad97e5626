/**
 * An answer whose bytes are all known: its status, Content-Type and Content-Length, and the body given
 * to one end() as a string, so that Node writes the headers and the body in one socket write (a Buffer
 * would go as a second chunk). The bindings' whole answers (SOAP responses and faults, JSON, plain
 * errors) and the probes' (src/ops/probes.ts) all go out through it; a HEAD request gets the headers alone.
 *
 * The answers of one turn of the event loop are written together, at its end (setImmediate, after the
 * poll phase has read every request that arrived): under load a burst of requests is answered in one
 * batch of writes instead of a system call between each read (docs/operations.md, "Request path").
 * The answer's headers are set at once; an answer is sent once, a second call for the same response
 * is ignored.
 */
import type { ServerResponse } from 'node:http';

type Pending = [res: ServerResponse, body: string | Buffer | undefined];

let batch: Pending[] = [];
const answered = new WeakSet<ServerResponse>();

function writeBatch(): void {
  const due = batch;
  batch = [];
  for (const [res, body] of due) {
    if (body === undefined) res.end();
    else if (typeof body === 'string') res.end(body, 'utf8');
    else res.end(body);
  }
}

export function sendWhole(res: ServerResponse, status: number, contentType: string, body: string, cacheControl?: string): void {
  sendCounted(res, status, contentType, body, Buffer.byteLength(body, 'utf8'), cacheControl);
}

/** sendWhole of a body whose UTF-8 length is known already (a kept answer, its bytes): not counted again. */
export function sendCounted(res: ServerResponse, status: number, contentType: string, body: string | Buffer, bytes: number, cacheControl?: string): void {
  if (!begin(res, status, contentType, bytes)) return;
  if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
  due(res, body);
}

/**
 * An answer compressed beforehand (a kept answer's gzip or br form, src/services/answer-cache.ts), with
 * the headers the response compression gives a compressed answer; the compression middleware leaves an
 * answer that already has a Content-Encoding as it is.
 */
export function sendCompressed(res: ServerResponse, status: number, contentType: string, coding: string, body: Buffer): void {
  if (!begin(res, status, contentType, body.length)) return;
  res.setHeader('Content-Encoding', coding);
  res.setHeader('Vary', 'Accept-Encoding');
  due(res, body);
}

/** Claims the response for this answer and sets its head; false when it was answered already. */
function begin(res: ServerResponse, status: number, contentType: string, length: number): boolean {
  if (answered.has(res) || res.headersSent) return false;
  answered.add(res);
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(length));
  return true;
}

function due(res: ServerResponse, body: string | Buffer): void {
  if (batch.length === 0) setImmediate(writeBatch);
  batch.push([res, res.req.method === 'HEAD' ? undefined : body]);
}
