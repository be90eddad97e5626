/**
 * Reads a request body for the SOAP and HTTP POST bindings within MAX_REQUEST_BYTES, the inflated body
 * too: inflation stops the moment it passes the limit, so a gzip bomb costs at most the limit. Every
 * failure is a BodyError with the status to answer, never a crash.
 */
import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { whenClosed } from '../request-context/exchange';

/** A body over the limit (413), not inflatable (400), of an unknown encoding (415); its message carries no internals. */
class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

const tooLarge = (limit: number) => new BodyError(413, `Request body exceeds ${limit} bytes`);

/** The client went away mid-body: nobody is left to answer. */
export class ClientAbortedError extends BodyError {
  constructor() {
    super(400, 'The client closed the connection before the request body was complete');
    this.name = 'ClientAbortedError';
  }
}

export function isBodyError(error: unknown): error is BodyError {
  return error instanceof BodyError;
}

/** The whole body, inflated; after a rejection the rest is read and dropped, so the connection can carry the answer. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding =
    String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase() || 'identity';
  const declared = Number(req.headers['content-length']);
  try {
    if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
    const decoder = decoderFor(encoding);
    if (decoder === undefined) throw new BodyError(415, `Content-Encoding '${encoding}' is not supported`);
    return await collect(req, decoder, encoding, limit);
  } catch (error) {
    discard(req);
    throw error;
  }
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
      if (outBytes > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onRaw = (chunk: Buffer) => {
      rawBytes += chunk.length;
      if (rawBytes > limit) finish(tooLarge(limit));
      else if (!decoder) onOut(chunk);
    };
    const onRawEnd = () => {
      if (!decoder) finish(null);
    };
    const onAbort = () => finish(new ClientAbortedError());
    // Closed before its end was read (the client left, perhaps while the request waited): the rest never comes.
    const onClose = () => {
      if (!req.readableEnded) finish(new ClientAbortedError());
    };
    req.on('data', onRaw);
    req.on('end', onRawEnd);
    req.on('error', onAbort);
    if (decoder) {
      decoder.on('data', onOut);
      decoder.on('end', () => finish(null));
      decoder.on('error', () => finish(new BodyError(400, `Request body is not valid ${encoding} data`)));
      req.pipe(decoder);
    }
    whenClosed(req, onClose);
  });
}

/** Reads and drops whatever is left of the request, so that a response can still go out on it. */
function discard(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed) return;
  req.on('error', () => undefined);
  req.resume();
}
