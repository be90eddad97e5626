/**
 * Requests sent on to a server (the primary, the candidate, a replay's target) and their answers
 * captured for comparison: the first bytes up to a cap, decoded when compressed, with the length and
 * digest of the whole.
 */
import { createHash, type Hash } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import type { Answer } from './compare';

export interface Target {
  url: URL;
  agent: http.Agent;
  send: (options: https.RequestOptions) => http.ClientRequest;
}

export interface TlsOptions {
  /** A CA certificate (PEM) to trust beside the system's, for a server with its own certificate. */
  ca?: Buffer;
  /** Accept any certificate (a self-signed one). */
  insecure?: boolean;
}

export function target(base: string, tls: TlsOptions = {}): Target {
  const url = new URL(base);
  if (url.protocol === 'https:') {
    const agent = new https.Agent({ keepAlive: true, ca: tls.ca, rejectUnauthorized: tls.insecure !== true });
    return { url, agent, send: (options) => https.request(options) };
  }
  if (url.protocol !== 'http:') throw new Error(`${base}: only http and https URLs can be used`);
  return { url, agent: new http.Agent({ keepAlive: true }), send: (options) => http.request(options) };
}

/** Headers of one hop only (RFC 9110, section 7.6.1): a proxy does not pass them on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)));
}

export interface OutgoingRequest {
  method: string;
  /** Path and query, appended to the target's path. */
  url: string;
  headers: IncomingHttpHeaders;
}

/** Starts a request to the target; the caller writes the body and ends it. */
export function open(to: Target, request: OutgoingRequest, timeoutMs: number): http.ClientRequest {
  const base = to.url.pathname.replace(/\/$/, '');
  return to.send({
    protocol: to.url.protocol,
    hostname: to.url.hostname,
    port: to.url.port,
    method: request.method,
    path: `${base}${request.url}`,
    headers: request.headers,
    agent: to.agent,
    timeout: timeoutMs,
    // The certificate is checked against the server's own name, not the client's Host passed on (no SNI for an address).
    servername: isIP(to.url.hostname) === 0 ? to.url.hostname : '',
  });
}

/** Sends a whole request and captures its whole answer; rejects on a network failure or the timeout. */
export function exchange(
  to: Target,
  request: OutgoingRequest & { body: Buffer },
  cap: number,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = open(to, request, timeoutMs);
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      const capture = new Capture(cap);
      response.on('data', (chunk: Buffer) => capture.add(chunk));
      response.on('end', () => resolve(capture.answer(response)));
      response.on('error', reject);
    });
    outgoing.end(request.body);
  });
}

/** The bytes of a body as they pass, up to `cap`, with the length and digest of all of them. */
export class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private length = 0;
  private readonly hash: Hash = createHash('sha256');

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    this.length += chunk.length;
    this.hash.update(chunk);
    if (this.kept >= this.cap) return;
    const part = chunk.length <= this.cap - this.kept ? chunk : chunk.subarray(0, this.cap - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  get truncated(): boolean {
    return this.length > this.kept;
  }

  /** The answer as compared: a compressed body decoded (within the cap), its digest that of what was decoded. */
  answer(response: Pick<IncomingMessage, 'statusCode' | 'headers'>): Answer {
    const status = response.statusCode ?? 0;
    const raw = {
      status,
      headers: response.headers,
      body: this.bytes,
      length: this.length,
      digest: this.hash.digest('hex'),
      truncated: this.truncated,
    };
    const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
    if (raw.truncated || encoding === '' || encoding === 'identity') return raw;
    try {
      const body = decode(encoding, raw.body, this.cap);
      return { ...raw, body, length: body.length, digest: createHash('sha256').update(body).digest('hex') };
    } catch {
      // Over the cap once decoded, or an encoding not known: compared by length and digest.
      return { ...raw, truncated: true };
    }
  }
}

function decode(encoding: string, body: Buffer, cap: number): Buffer {
  const options = { maxOutputLength: cap };
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.gunzipSync(body, options);
  if (encoding === 'deflate') return zlib.inflateSync(body, options);
  if (encoding === 'br') return zlib.brotliDecompressSync(body, options);
  throw new Error(`unknown content encoding ${encoding}`);
}
