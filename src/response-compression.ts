/**
 * Response compression when Accept-Encoding asks for it. Every whole answer sets its Content-Length
 * before end() (send.ts, chunk-writer.ts, Express's send): the middleware writes the head itself and
 * would otherwise send an answer it leaves uncompressed chunked, not as the legacy answers go.
 */
import compression from 'compression';
import Negotiator from 'negotiator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

export function responseCompression(): RequestHandler {
  return compression();
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
    compress(req, res, next);
  };
}

type BindingHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What the middleware offers and prefers (compression 1.8: br first, then gzip, on a Node with brotli). */
const OFFERED = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED = ['br', 'gzip'];

/** Below this many bytes the middleware sends an answer as it is (its default threshold). */
const COMPRESSION_THRESHOLD = 1024;

/** The coding (br or gzip) the middleware would give this answer: what a kept answer may be sent in, compressed beforehand. */
export function negotiatedCoding(
  req: Pick<IncomingMessage, 'headers' | 'method'>,
  bytes: number,
): 'br' | 'gzip' | undefined {
  if (req.method === 'HEAD' || bytes < COMPRESSION_THRESHOLD || req.headers['accept-encoding'] === undefined)
    return undefined;
  const coding = new Negotiator(req).encoding(OFFERED, { preferred: PREFERRED });
  return coding === 'br' || coding === 'gzip' ? coding : undefined;
}
