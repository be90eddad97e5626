/**
 * Replay (docs/cutover.md): every request of a HAR 1.2 recording (Charles, Fiddler, mitmproxy, a
 * browser) sent to a target server, and each answer compared with the recorded one as shadow mode
 * compares them, into the same report. The recording is read and checked whole before anything is sent.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { compareAnswers, pathMatcher, type Answer } from './compare';
import { endToEnd, exchange, target, type TlsOptions } from './forward';
import { Report } from './report';
import { classify, trafficOf, type TrafficSettings } from './traffic';

export interface Recorded {
  host: string;
  request: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer };
  /** Undefined when the recording holds no answer (an aborted request). */
  answer: Answer | undefined;
}

export class HarError extends Error {}

interface HarHeader {
  name: string;
  value: string;
}

/** The exchanges of a HAR file; a HarError naming what is wrong when it is not one. */
export function readHar(text: string): Recorded[] {
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch (err) {
    throw new HarError(`not JSON: ${(err as Error).message}`);
  }
  const entries = (har as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError('not a HAR file: it has no log.entries array');
  return entries.map((entry: unknown, index) => recorded(entry, `log.entries[${index}]`));
}

function recorded(entry: unknown, where: string): Recorded {
  const { request, response } = (entry ?? {}) as {
    request?: Record<string, unknown>;
    response?: Record<string, unknown>;
  };
  if (request === undefined || typeof request.method !== 'string' || typeof request.url !== 'string')
    throw new HarError(`${where}: no request with a method and a URL`);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new HarError(`${where}.request.url: not an absolute URL: ${request.url}`);
  }
  const postData = request.postData as { text?: string; encoding?: string } | undefined;
  const body = bytes(postData?.text, postData?.encoding);
  const headers = headersOf(request.headers, `${where}.request.headers`);
  const status = typeof response?.status === 'number' ? response.status : 0;
  let answer: Answer | undefined;
  if (status > 0) {
    const content = (response!.content ?? {}) as { text?: string; encoding?: string };
    const answerBody = bytes(content.text, content.encoding);
    // A HAR holds the body decoded, whatever Content-Encoding the server sent it in.
    const answerHeaders = headersOf(response!.headers, `${where}.response.headers`);
    delete answerHeaders['content-encoding'];
    answer = {
      status,
      headers: answerHeaders,
      body: answerBody,
      length: answerBody.length,
      digest: createHash('sha256').update(answerBody).digest('hex'),
      truncated: false,
    };
  }
  return {
    host: url.host,
    request: { method: request.method, url: `${url.pathname}${url.search}`, headers, body },
    answer,
  };
}

function bytes(text: string | undefined, encoding: string | undefined): Buffer {
  if (text === undefined) return Buffer.alloc(0);
  return encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

/** A HAR's header list as Node's headers: HTTP/2 pseudo-headers and Content-Length left out. */
function headersOf(list: unknown, where: string): IncomingHttpHeaders {
  if (list === undefined) return {};
  if (!Array.isArray(list)) throw new HarError(`${where}: not a list`);
  const headers: IncomingHttpHeaders = {};
  for (const header of list as HarHeader[]) {
    if (typeof header?.name !== 'string' || typeof header.value !== 'string')
      throw new HarError(`${where}: a header without a name and a value`);
    const name = header.name.toLowerCase();
    if (name.startsWith(':') || name === 'content-length') continue;
    headers[name] = headers[name] === undefined ? header.value : `${String(headers[name])}, ${header.value}`;
  }
  return endToEnd(headers);
}

export interface ReplayOptions extends TlsOptions {
  target: string;
  out: string;
  concurrency: number;
  /** The recorded host whose entries are replayed; by default the one most entries went to. */
  host?: string;
  includeWrites: boolean;
  ignore: readonly string[];
  captureBytes: number;
  timeoutMs: number;
  /** differences.jsonl stops growing at this size; what is left out is counted. */
  maxFileBytes: number;
  /** Requests sent a second at most, over all workers; no limit when undefined. */
  rate?: number;
  /** The target's settings that decide which operation a request calls (base path, namespaces); the server's defaults by default. */
  serverSettings?: TrafficSettings;
}

/** Replays the recording; resolves to the report, written. */
export async function replay(recording: readonly Recorded[], options: ReplayOptions): Promise<Report> {
  const to = target(options.target, options);
  const report = new Report(options.out, { maxFileBytes: options.maxFileBytes });
  const ignored = pathMatcher(options.ignore);
  const host = options.host ?? mostCommonHost(recording);
  const pending = [...recording];
  const paced = pacer(options.rate);
  const traffic = trafficOf(options.serverSettings);
  async function worker(): Promise<void> {
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      const call = await classify(traffic, next.request, next.request.body);
      if (next.host !== host || next.answer === undefined) report.count(call, 'skipped');
      else if (call.write && !options.includeWrites) report.count(call, 'notMirrored');
      else {
        await paced();
        const answer = await exchange(to, next.request, options.captureBytes, options.timeoutMs).catch(() => undefined);
        if (answer === undefined) report.count(call, 'candidateErrors');
        else
          report.record(
            call,
            next.request,
            [next.answer.status, answer.status],
            compareAnswers(call, next.request, next.answer, answer, { ignored, noisy: () => false }),
          );
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    to.agent.destroy();
    await report.close();
  }
  return report;
}

/** Waits for the next request's turn: the nth sent no sooner than (n-1)/rate seconds after the first, as GoReplay paces. */
function pacer(rate: number | undefined): () => Promise<void> {
  let first: number | undefined;
  let sent = 0;
  return () => {
    if (rate === undefined) return Promise.resolve();
    first ??= Date.now();
    const wait = first + (sent++ * 1000) / rate - Date.now();
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  };
}

function mostCommonHost(recording: readonly Recorded[]): string | undefined {
  const counts = new Map<string, number>();
  for (const entry of recording) counts.set(entry.host, (counts.get(entry.host) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
