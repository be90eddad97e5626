/**
 * --record (docs/cutover.md, "Recording"): the exchanges the shadow proxy passes between clients and
 * the primary, written as a HAR 1.2 file that replay.ts reads back, credentials removed
 * (credentials.ts), within the file's size budget. An exchange whose request or answer was not kept
 * whole (over the body limit or the capture cap) cannot be replayed: it is left out and counted.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Answer } from './compare';
import { redactedUrl } from '../config';
import { bodyWithoutPasswords, REDACTED, withoutSecretHeaders } from './credentials';
import { CappedFile } from './files';

export interface Exchange {
  request: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };
  answer: Answer;
  /** When the request came (ms since the epoch), and when its answer was sent whole. */
  started: number;
  finished: number;
}

const HEAD = '{"log":{"version":"1.2","creator":{"name":"mobileapp-asmx shadow","version":"1"},"entries":[\n';
const TAIL = '\n]}}\n';

export class HarRecorder {
  private readonly file: CappedFile;
  private entries = 0;
  private notWhole = 0;

  constructor(file: string, maxBytes: number) {
    this.file = new CappedFile(file, maxBytes);
    this.file.write(HEAD);
  }

  /** Exchanges left out: over the budget, or not kept whole. */
  get dropped(): number {
    return this.file.dropped + this.notWhole;
  }

  add(exchange: Exchange): void {
    if (exchange.answer.truncated) return this.leaveOut();
    if (this.file.write(`${this.entries === 0 ? '' : ',\n'}${JSON.stringify(entry(exchange))}`)) this.entries += 1;
  }

  /** An exchange that was not kept whole. */
  leaveOut(): void {
    this.notWhole += 1;
  }

  close(): Promise<void> {
    return this.file.close(TAIL);
  }
}

function entry({ request, answer, started, finished }: Exchange): object {
  const host = String(request.headers.host ?? 'localhost');
  const url = new URL(request.url, `http://${host}`);
  const requestHeaders = withoutSecretHeaders(request.headers);
  const body = bodyWithoutPasswords(request.body);
  const type = String(request.headers['content-type'] ?? '');
  return {
    startedDateTime: new Date(started).toISOString(),
    time: finished - started,
    request: {
      method: request.method,
      url: redactedUrl(url.href, REDACTED),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(requestHeaders),
      queryString: [],
      headersSize: -1,
      bodySize: request.body.length,
      ...(body.length === 0 ? {} : { postData: { mimeType: type, ...content(body) } }),
    },
    response: {
      status: answer.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(withoutSecretHeaders(answer.headers)),
      content: {
        size: answer.body.length,
        mimeType: String(answer.headers['content-type'] ?? ''),
        ...content(answer.body),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: answer.length,
    },
    cache: {},
    timings: { send: 0, wait: finished - started, receive: 0 },
  };
}

/** Text as it is when it is UTF-8, else base64 (HAR 1.2's `encoding`). */
function content(bytes: Buffer): { text: string; encoding?: 'base64' } {
  const text = bytes.toString('utf8');
  return Buffer.byteLength(text) === bytes.length && !text.includes('\uFFFD')
    ? { text }
    : { text: bytes.toString('base64'), encoding: 'base64' };
}

function harHeaders(headers: IncomingHttpHeaders): { name: string; value: string }[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one })),
  );
}
