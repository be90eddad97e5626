/**
 * Response compression (docs/integrators.md, "Compression"): gzip or br when the request's
 * Accept-Encoding asks for it, never otherwise (the compression middleware negotiates; without an
 * Accept-Encoding naming one of them the answer goes out as it always did).
 *
 * The middleware sends its headers itself, which would lose the Content-Length that Node adds to an
 * answer written with a single end(body), and with it the answers' declared length (the legacy
 * SOAP answers and documents carry one). So a body given whole to end() gets its Content-Length
 * first: the middleware keeps it for an answer too small to compress (under 1 KB) and removes it
 * when it compresses. Streamed answers (written piece by piece) are compressed as they go.
 */
import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

type End = Response['end'];

export function responseCompression(): RequestHandler[] {
  return [compression(), declaredLength];
}

function declaredLength(_req: Request, res: Response, next: NextFunction): void {
  const end: End = res.end;
  res.end = function (this: Response, ...args: unknown[]) {
    const [chunk, encoding] = args;
    if (!this.headersSent && !this.hasHeader('Content-Length') && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) {
      const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk.length;
      this.setHeader('Content-Length', String(length));
    }
    return (end as (...a: unknown[]) => Response).apply(this, args);
  } as End;
  next();
}
