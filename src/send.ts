/**
 * An answer whose bytes are all known, its body given to one end() as a string so that headers and
 * body go in one socket write. A turn of the event loop writes its answers at its end, so a burst is
 * answered in one batch of writes (docs/operations.md, "Request path"); a second answer is ignored.
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

export function sendWhole(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  cacheControl?: string,
): void {
  sendCounted(res, status, contentType, body, Buffer.byteLength(body, 'utf8'), cacheControl);
}

/** sendWhole of a body whose UTF-8 length is known already (a kept answer, its bytes): not counted again. */
export function sendCounted(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  bytes: number,
  cacheControl?: string,
): void {
  if (!begin(res, status, contentType, bytes)) return;
  if (cacheControl !== undefined) res.setHeader('Cache-Control', cacheControl);
  due(res, body);
}

/** A kept answer's gzip or br form, with the headers compression gives (it leaves an encoded answer as it is). */
export function sendCompressed(
  res: ServerResponse,
  status: number,
  contentType: string,
  coding: string,
  body: Buffer,
): void {
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

/** What every answer carries: nosniff keeps a browser from running a text or JSON answer that echoes input as script. */
export function setAnswerHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
}
