/**
 * Response compression when Accept-Encoding asks for it (docs/integrators.md). A body given whole to
 * end() gets its Content-Length first: the middleware would lose the one Node adds, which the legacy
 * answers carry, and it removes it itself when it compresses.
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
 * The same, for a request whose every answer has a compressible media type (the bindings' answers:
 * XML, JSON or plain text). Without an Accept-Encoding header the middleware compresses nothing and
 * only adds `Vary: Accept-Encoding` to such an answer, so that is set at once, and the middleware
 * (which hooks the response's writeHead, write and end) runs only for a request that names encodings.
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

/**
 * The content coding the middleware would give this request's answer of `bytes` bytes, when it is br
 * or gzip: what an answer compressed beforehand (a kept answer, src/services/answer-cache.ts) may be
 * sent in. Never for HEAD or an answer under the threshold, as the middleware.
 */
export function negotiatedCoding(req: Pick<IncomingMessage, 'headers' | 'method'>, bytes: number): 'br' | 'gzip' | undefined {
  if (req.method === 'HEAD' || bytes < COMPRESSION_THRESHOLD || req.headers['accept-encoding'] === undefined) return undefined;
  const coding = new Negotiator(req).encoding(OFFERED, { preferred: PREFERRED });
  return coding === 'br' || coding === 'gzip' ? coding : undefined;
}
