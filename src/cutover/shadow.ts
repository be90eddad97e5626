/**
 * Shadow mode (docs/cutover.md): a reverse proxy in front of two servers. Every client is served by
 * the primary alone, its answer streamed back unchanged; reads are then sent to the candidate in the
 * background and the two answers compared (compare.ts) into the report (report.ts). The candidate can
 * be slow, down or wrong without a client noticing: mirrored work waits in a bounded queue, each call
 * under a timeout, and what does not fit is dropped and counted.
 */
import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSettings } from '../config';
import { ConnectionGuard, httpServer, type ConnectionSettings } from '../connections';
import { fromLocalMachine } from '../request-context/client-address';
import { compareAnswers, pathMatcher, differencesOf, type Answer } from './compare';
import { Capture, endToEnd, exchange, open, target, type Target, type TlsOptions } from './forward';
import { NoiseLearner } from './noise';
import { HarRecorder } from './recording';
import { keyOf, Report } from './report';
import { classify, trafficOf, type Call, type TrafficSettings } from './traffic';

export interface ShadowOptions extends TlsOptions {
  primary: string;
  candidate: string;
  /** A second legacy instance on the primary's data: where its answers differ from the primary's is noise. */
  secondary?: string;
  port: number;
  host: string;
  out: string;
  mirrorWrites: boolean;
  ignore: readonly string[];
  /** Requests up to this size are kept for the candidate (the servers' own body limit). */
  maxRequestBytes: number;
  /** Each side's answer is compared up to this many bytes, a longer one by length and digest. */
  captureBytes: number;
  /** Mirrored calls waiting at most: more are dropped and counted. */
  queueLength: number;
  /**
   * Bytes held for comparison at most: answers being captured and mirrored calls waiting. Past it an
   * answer is compared by length and digest only, and a call that does not fit is dropped.
   */
  heldBytes: number;
  /** Mirrored calls under way at once. */
  concurrency: number;
  /** A mirrored call (or a call to learn noise) that takes longer fails. */
  timeoutMs: number;
  /** One mirrored read in this many also learns noise (from the secondary, else the candidate asked again); 0 for none. */
  noiseEvery: number;
  /** How often summary.json and summary.html are rewritten. */
  reportEveryMs: number;
  /** differences.jsonl (and a recording) stop growing at this size; what is left out is counted. */
  maxFileBytes: number;
  /** The server's timeouts and ceiling on connections, so a silent client of the proxy holds nothing; the server's defaults when not given. */
  connections?: ConnectionSettings;
  /** A HAR file the client exchanges (the primary's answers) are recorded in, credentials removed. */
  record?: string;
  /** The fraction of reads mirrored, from 0 to 1; the others are counted as notSampled. */
  sample: number;
  /** Whether /__shadow/* answers clients other than the local machine. */
  ownPathsPublic: boolean;
  /** The servers' settings that decide which operation a request calls (base path, namespaces); their defaults when not given. */
  serverSettings?: TrafficSettings;
}

export const SHADOW_DEFAULTS = {
  port: 8081,
  host: '0.0.0.0',
  out: './shadow-report',
  mirrorWrites: false,
  ignore: [],
  maxRequestBytes: 4 * 1024 * 1024,
  captureBytes: 16 * 1024 * 1024,
  queueLength: 1000,
  heldBytes: 256 * 1024 * 1024,
  concurrency: 4,
  timeoutMs: 30_000,
  noiseEvery: 20,
  reportEveryMs: 5000,
  maxFileBytes: 256 * 1024 * 1024,
  ownPathsPublic: false,
  sample: 1,
} satisfies Partial<ShadowOptions>;

/** The bytes held for comparison (ShadowOptions.heldBytes): taken up to what is left, given back when done. */
interface Budget {
  take(wanted: number): number;
  give(bytes: number): void;
}

interface Mirrored {
  call: Call;
  request: { method: string; url: string; headers: http.IncomingHttpHeaders; body: Buffer };
  primary: Answer;
  bytes: number;
  /** When the client's request came (ms since the epoch). */
  started: number;
}

export interface Shadow {
  port: number;
  report: Report;
  /** The ceiling on connections and the send timeout its clients are held to, with their counts. */
  connections: ConnectionGuard;
  /** Resolves once every mirrored call already queued has been compared (tests, and a clean exit). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startShadow(options: ShadowOptions): Promise<Shadow> {
  const primary = target(options.primary, options);
  const candidate = target(options.candidate, options);
  const secondary = options.secondary === undefined ? undefined : target(options.secondary, options);
  const noise = new NoiseLearner();
  const learnsNoise = sampler(options.noiseEvery > 0 ? 1 / options.noiseEvery : 0);
  const report = new Report(options.out, {
    noisyFields: (key) => noise.noisyFields(key),
    maxFileBytes: options.maxFileBytes,
  });
  const ignored = pathMatcher(options.ignore);
  const sampled = sampler(options.sample);
  const recorder = options.record === undefined ? undefined : new HarRecorder(options.record, options.maxFileBytes);
  if (recorder !== undefined) report.track(recorder);
  const traffic = trafficOf(options.serverSettings);
  const queue: Mirrored[] = [];
  let held = 0;
  let running = 0;
  /** Exchanges whose request is still being classified: settled() waits for them too. */
  let classifying = 0;
  let idle: (() => void)[] = [];
  const budget: Budget = {
    take(wanted) {
      const granted = Math.max(0, Math.min(wanted, options.heldBytes - held));
      held += granted;
      return granted;
    },
    give(bytes) {
      held -= bytes;
    },
  };

  function enqueue(job: Mirrored): void {
    const granted = queue.length < options.queueLength ? budget.take(job.bytes) : -1;
    if (granted < job.bytes) {
      budget.give(Math.max(0, granted));
      report.count(job.call, 'dropped');
      return;
    }
    queue.push(job);
    pump();
  }

  function wakeIfIdle(): void {
    if (running === 0 && queue.length === 0 && classifying === 0) for (const resolve of idle.splice(0)) resolve();
  }

  function pump(): void {
    while (running < options.concurrency && queue.length > 0) {
      const job = queue.shift()!;
      running += 1;
      void mirror(job).finally(() => {
        budget.give(job.bytes);
        running -= 1;
        pump();
        wakeIfIdle();
      });
    }
  }

  async function mirror(job: Mirrored): Promise<void> {
    const key = keyOf(job.call);
    let answer: Answer;
    try {
      answer = await exchange(candidate, job.request, options.captureBytes, options.timeoutMs);
    } catch {
      report.count(job.call, 'candidateErrors');
      return;
    }
    if (!job.call.write && learnsNoise()) await learnNoise(key, job, answer);
    // The v2 contract and the OpenAPI document are this server's own: the legacy one answers 404.
    if (
      (job.call.contract === 'v2' || job.call.operation === 'openapi') &&
      (answer.status === 404) !== (job.primary.status === 404)
    ) {
      report.count(job.call, 'notInContract');
      return;
    }
    const verdict = compareAnswers(job.call, job.request, job.primary, answer, {
      ignored,
      noisy: (path) => noise.isNoisy(key, path),
    });
    report.record(job.call, job.request, [job.primary.status, answer.status], verdict);
  }

  /**
   * Two answers to one request that should agree: the primary's and the secondary's when there is one
   * (as Diffy does), else the candidate's two. The primary is never asked again, nor a write re-sent.
   */
  async function learnNoise(key: string, job: Mirrored, candidateAnswer: Answer): Promise<void> {
    const [first, to] = secondary === undefined ? [candidateAnswer, candidate] : [job.primary, secondary];
    const again = await exchange(to, job.request, options.captureBytes, options.timeoutMs).catch(() => undefined);
    if (again !== undefined) noise.learn(key, differencesOf(first, again).differences);
  }

  const listener: RequestListener = (req, res) => {
    if (req.url?.startsWith('/__shadow/')) return answerOwn(req, res, report, options.ownPathsPublic);
    const classified = (head: Parameters<typeof classify>[1], body: Buffer, then: (call: Call) => void) => {
      classifying += 1;
      void classify(traffic, head, body)
        .then(then)
        .finally(() => {
          classifying -= 1;
          wakeIfIdle();
        });
    };
    proxy(
      req,
      res,
      primary,
      options,
      budget,
      classified,
      (job) => {
        recorder?.add({ request: job.request, answer: job.primary, started: job.started, finished: Date.now() });
        if (job.call.write && !options.mirrorWrites) report.count(job.call, 'notMirrored');
        else if (!job.call.write && !sampled()) report.count(job.call, 'notSampled');
        else enqueue(job);
      },
      (call) => {
        recorder?.leaveOut();
        report.count(call, 'notMirrored');
      },
    );
  };
  const settings = options.connections ?? loadSettings({});
  const connections = new ConnectionGuard(settings);
  const server = httpServer(listener, settings, connections);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const timer = setInterval(() => report.write(), options.reportEveryMs);
  timer.unref();
  report.write();

  const settled = () =>
    running === 0 && queue.length === 0 && classifying === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => idle.push(resolve));
  return {
    port: (server.address() as AddressInfo).port,
    report,
    connections,
    settled,
    async close() {
      clearInterval(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      queue.length = 0;
      await settled();
      idle = [];
      for (const to of [primary, candidate, secondary]) to?.agent.destroy();
      await recorder?.close();
      await report.close();
    },
  };
}

/**
 * One client request through to the primary and its answer back, streamed both ways. Once the client
 * has its whole answer, `mirror` gets the exchange, unless the request was over the body limit
 * (`tooLarge`: it cannot be sent again). The answer is captured within what the budget grants.
 */
type Classifier = (
  head: { method: string; url: string; headers: http.IncomingHttpHeaders },
  body: Buffer,
  then: (call: Call) => void,
) => void;

function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  primary: Target,
  options: ShadowOptions,
  budget: Budget,
  classified: Classifier,
  mirror: (job: Mirrored) => void,
  tooLarge: (call: Call) => void,
): void {
  const started = Date.now();
  const headers = forwarded(req);
  const upstream = open(primary, { method: req.method ?? 'GET', url: req.url ?? '/', headers }, 0);
  const sent = new Capture(options.maxRequestBytes);
  req.on('data', (chunk: Buffer) => sent.add(chunk));
  req.pipe(upstream);
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.on('error', () => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end('The primary server did not answer.');
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
    let reserved = budget.take(options.captureBytes);
    const received = new Capture(reserved);
    const release = () => {
      budget.give(reserved);
      reserved = 0;
    };
    answer.on('data', (chunk: Buffer) => received.add(chunk));
    answer.pipe(res);
    res.on('close', release);
    res.on('finish', () => {
      release();
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers, body: sent.bytes };
      const primaryAnswer = received.answer(answer);
      classified(request, request.body, (call) => {
        if (sent.truncated) return tooLarge(call);
        mirror({
          call,
          request,
          primary: primaryAnswer,
          bytes: request.body.length + primaryAnswer.body.length,
          started,
        });
      });
    });
  });
}

/**
 * Whether each read is taken (mirrored, or used to learn noise): `fraction` of them, spread evenly, the
 * same reads on every run (Envoy's runtime_fraction, Scientist's ramp-up), so that a run can be
 * repeated and a test can count.
 */
function sampler(fraction: number): () => boolean {
  let reads = 0;
  return () => {
    reads += 1;
    return Math.floor(reads * fraction) > Math.floor((reads - 1) * fraction);
  };
}

/** The client's headers as a reverse proxy passes them on: its Host kept, X-Forwarded-* added. */
function forwarded(req: IncomingMessage): http.IncomingHttpHeaders {
  const headers = endToEnd(req.headers);
  const client = req.socket.remoteAddress ?? '';
  const before = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = before === undefined ? client : `${String(before)}, ${client}`;
  headers['x-forwarded-proto'] = 'http';
  if (req.headers.host !== undefined) headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

/** The proxy's own endpoints: never forwarded, and by default for the local machine only (they show what clients sent). */
function answerOwn(req: IncomingMessage, res: ServerResponse, report: Report, toAnyone: boolean): void {
  const path = (req.url ?? '').split('?')[0];
  // Its own socket's address: an X-Forwarded-For sent by a client is not believed.
  if (!toAnyone && !fromLocalMachine(req, false))
    res
      .writeHead(403, { 'content-type': 'text/plain; charset=utf-8' })
      .end('The proxy answers /__shadow/ for the local machine only (see --shadow-paths-public).');
  else if (path === '/__shadow/metrics')
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(report.metrics());
  else if (path === '/__shadow/summary')
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(report.summary()));
  else res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
}
