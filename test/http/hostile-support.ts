/**
 * A hostile client on a real socket: one request whose answer is timed while /health is asked every
 * 25 ms beside it, so a test shows both that the request is answered quickly and that the server kept
 * answering others meanwhile (docs/architecture.md: work is bounded; no request can hang the server).
 */
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** From the first byte sent to the last byte received. */
  ms: number;
}

export interface HostileOutcome {
  answer: Answer;
  /** Every /health asked while the request was under way (at least one): status and time. */
  health: { status: number; ms: number }[];
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: http.OutgoingHttpHeaders;
  body?: Buffer | string;
}

export function send(baseUrl: string, raw: RawRequest): Promise<Answer> {
  const url = new URL(raw.path, baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: raw.method, headers: raw.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(raw.body);
  });
}

/** Sends the request and, until its answer is in, asks /health every 25 ms (and once more after). */
export async function sendWithHealth(baseUrl: string, raw: RawRequest): Promise<HostileOutcome> {
  const health: Promise<{ status: number; ms: number }>[] = [];
  const ask = () =>
    health.push(send(baseUrl, { method: 'GET', path: '/health' }).then((a) => ({ status: a.status, ms: a.ms })));
  let done = false;
  const pending = send(baseUrl, raw).finally(() => {
    done = true;
  });
  ask();
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (!done) ask();
  }
  const answer = await pending;
  return { answer, health: await Promise.all(health) };
}

/** The bound the hostile tests hold every refusal to (the issue: well under 2 s, against tens of seconds). */
export const ANSWER_WITHIN_MS = 2000;
/**
 * The bound for documents that are read whole: 4 MiB of the constructs the parser reads slowest takes
 * 0.3-0.6 s on an idle core and up to 3.5 s measured on the shared test machine (load 9.6 on 2 cores).
 * Linear, and the server answers others meanwhile (the /health bound below is what proves it).
 */
export const READ_WHOLE_WITHIN_MS = 10_000;
/** /health while a hostile request is parsed: generous, the CPU is shared with other test runs. */
export const HEALTH_WITHIN_MS = 1500;

export function expectQuickAndHealthy(outcome: HostileOutcome, withinMs = ANSWER_WITHIN_MS): void {
  expect(outcome.answer.ms).toBeLessThan(withinMs);
  expect(outcome.health.length).toBeGreaterThan(0);
  for (const probe of outcome.health) {
    expect(probe.status).toBe(200);
    expect(probe.ms).toBeLessThan(HEALTH_WITHIN_MS);
  }
}
