/**
 * Response compression when Accept-Encoding asks for it. A body given whole to end() gets its
 * Content-Length first: the middleware would lose the one Node adds, which the legacy answers carry.
 */
import compression from 'compression';
import Negotiator from 'negotiator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

type End = ServerResponse['end'];

export function responseCompression(): RequestHandler[] {
  return [compression(), declaredLength];
}

/**
 * The same for the bindings, whose answers are all compressible: without Accept-Encoding the
 * middleware would only add Vary, so that is set at once and its hooks run only when encodings are named.
 */
export function bindingCompression(): BindingHandler {
  // The middleware is written for Node's own request and response (it hooks writeHead, write and
  // end); Express's types are only how the package declares it.
  const compress = compression() as unknown as BindingHandler;
  return (req, res, next) => {
    if (req.headers['accept-encoding'] === undefined) {
      res.setHeader('Vary', 'Accept-Encoding');
      return next();
    }
    compress(req, res, (error?: unknown) => (error === undefined ? declaredLength(req, res, next) : next(error)));
  };
}

type BindingHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

function declaredLength(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    const [chunk, encoding] = args;
    if (!this.headersSent && !this.hasHeader('Content-Length') && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk.length;
      this.setHeader('Content-Length', String(length));
    }
    return end(...args);
  } as End;
  next();
}

/** What the middleware offers and prefers (compression 1.8: br first, then gzip, on a Node with brotli). */
const OFFERED = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED = ['br', 'gzip'];

/** Below this many bytes the middleware sends an answer as it is (its default threshold). */
const COMPRESSION_THRESHOLD = 1024;

/** The coding (br or gzip) the middleware would give this answer: what a kept answer may be sent in, compressed beforehand. */
export function negotiatedCoding(req: Pick<IncomingMessage, 'headers' | 'method'>, bytes: number): 'br' | 'gzip' | undefined {
  if (req.method === 'HEAD' || bytes < COMPRESSION_THRESHOLD || req.headers['accept-encoding'] === undefined) return undefined;
  const coding = new Negotiator(req).encoding(OFFERED, { preferred: PREFERRED });
  return coding === 'br' || coding === 'gzip' ? coding : undefined;
}
