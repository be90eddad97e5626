/**
 * Reads a request body for the SOAP and HTTP POST bindings, within settings.maxRequestBytes.
 *
 * docs/architecture.md: no request can crash the process or hang it. The npm soap library reads bodies
 * without a limit and dies on a gzip bomb or a broken gzip body (docs/contract.md, "What the npm soap
 * library does not do by itself"), so every binding reads its body here first:
 * - the raw body and, for Content-Encoding gzip/deflate/br, the inflated body both stay within the
 *   limit: inflation stops the moment the output passes it (a gzip bomb costs at most limit bytes);
 * - a body that cannot be inflated is a BodyEncodingError, an unknown encoding an
 *   UnsupportedEncodingError, a body over the limit a BodyTooLargeError: typed, never a crash;
 * - a client that goes away mid-body rejects with ClientAbortedError (nobody is left to answer).
 * The caller maps each error to its status (see status below).
 */
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';

class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor(readonly limit: number) {
    super(`Request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

class BodyEncodingError extends Error {
  readonly status = 400;
  constructor(encoding: string) {
    super(`Request body is not valid ${encoding} data`);
    this.name = 'BodyEncodingError';
  }
}

class UnsupportedEncodingError extends Error {
  readonly status = 415;
  constructor(readonly encoding: string) {
    super(`Content-Encoding '${encoding}' is not supported`);
    this.name = 'UnsupportedEncodingError';
  }
}

export class ClientAbortedError extends Error {
  readonly status = 400;
  constructor() {
    super('The client closed the connection before the request body was complete');
    this.name = 'ClientAbortedError';
  }
}

export type BodyError = BodyTooLargeError | BodyEncodingError | UnsupportedEncodingError | ClientAbortedError;

export function isBodyError(error: unknown): error is BodyError {
  return (
    error instanceof BodyTooLargeError ||
    error instanceof BodyEncodingError ||
    error instanceof UnsupportedEncodingError ||
    error instanceof ClientAbortedError
  );
}

/**
 * The whole body, inflated, as bytes (possibly empty). Rejects with one of the typed errors above.
 * After a rejection the rest of the request is read and discarded, so the connection can carry the
 * answer and the next request.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = contentEncoding(req);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discard(req);
    throw new BodyTooLargeError(limit);
  }
  const decoder = decoderFor(encoding);
  if (decoder === undefined) {
    discard(req);
    throw new UnsupportedEncodingError(encoding);
  }
  try {
    return await collect(req, decoder, encoding, limit);
  } catch (error) {
    discard(req);
    throw error;
  }
}

function contentEncoding(req: IncomingMessage): string {
  return String(req.headers['content-encoding'] ?? 'identity').trim().toLowerCase() || 'identity';
}

/** null: the body is not encoded; undefined: an encoding this server does not read. */
function decoderFor(encoding: string): Transform | null | undefined {
  switch (encoding) {
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function collect(req: IncomingMessage, decoder: Transform | null, encoding: string, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let rawBytes = 0;
    let outBytes = 0;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      req.off('data', onRaw);
      req.off('end', onRawEnd);
      req.off('error', onAbort);
      req.off('close', onClose);
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, outBytes));
    };
    const onOut = (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limit) finish(new BodyTooLargeError(limit));
      else chunks.push(chunk);
    };
    const onRaw = (chunk: Buffer) => {
      rawBytes += chunk.length;
      if (rawBytes > limit) finish(new BodyTooLargeError(limit));
      else if (!decoder) onOut(chunk);
    };
    const onRawEnd = () => {
      if (!decoder) finish(null);
    };
    const onAbort = () => finish(new ClientAbortedError());
    const onClose = () => {
      if (!req.complete) finish(new ClientAbortedError());
    };
    req.on('data', onRaw);
    req.on('end', onRawEnd);
    req.on('error', onAbort);
    req.on('close', onClose);
    if (decoder) pipeDecoder(req, decoder, onOut, finish, encoding);
  });
}

function pipeDecoder(
  source: Readable,
  decoder: Transform,
  onOut: (chunk: Buffer) => void,
  finish: (error: Error | null) => void,
  encoding: string,
): void {
  decoder.on('data', onOut);
  decoder.on('end', () => finish(null));
  decoder.on('error', () => finish(new BodyEncodingError(encoding)));
  source.pipe(decoder);
}

/** Reads and drops whatever is left of the request, so that a response can still go out on it. */
function discard(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  req.on('error', () => undefined);
  req.resume();
}
