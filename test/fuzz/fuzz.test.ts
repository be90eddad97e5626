/**
 * Bounded fuzzing of the four bindings against the real in-process server on SQLite (fast-check,
 * requests.ts): mutated SOAP 1.1/1.2 envelopes, HTTP GET queries, form, JSON and multipart bodies.
 * Every answer must be one the contract has (docs/operations.md, "Input limits"; docs/integrators.md):
 * - SOAP: 200 with an envelope; 400, 413 or 415 with an empty body; 500 only with a Client/Sender,
 *   VersionMismatch or MustUnderstand fault, or the Server fault "Root element is missing." ASMX gives
 *   an empty body (docs/contract.md, recorded: err-soap11-empty-body-no-action). Never any other Server/Receiver fault.
 * - HTTP GET/POST: 200 JSON (Success true or false) or HelloWorld's <string>; 400, 413, 415 text/plain;
 *   500 text/plain with a legacy protocol text, never "Server was unable to process request."; 414/431
 *   for a request line over Node's header limit.
 * And: every answer within 5 s, /health answering at the end, the live heap (after a full collection)
 * no more than 50 MB larger than after the warm-up.
 *
 * CI runs a fixed seed and a fixed number of cases per binding, each family also bounded in time; on a
 * failure fast-check prints the seed and the path of the smallest failing case. By hand:
 *   FUZZ_RUNS=100000 FUZZ_SEED=123 npx jest test/fuzz     (FUZZ_RUNS is the total over the 5 families)
 */
import fc from 'fast-check';
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { insertMasterData } from '../support/fixture';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { send, type Answer, type RawRequest } from '../http/hostile-support';
import { MAIN_PATH, SYNC_PATH } from '../soap/soap-support';
import { formRequests, getRequests, jsonRequests, multipartRequests, soapRequests } from './requests';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const LONG_RUN = process.env.FUZZ_RUNS !== undefined;
const RUNS_PER_FAMILY = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 4000) / 5));
/** CI: at most 5 s per family (about 25 s in all); a long run by hand is bounded by its count alone. */
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_MS ?? (LONG_RUN ? 0 : 5000));
const ANSWER_WITHIN_MS = 5000;
/** Live heap growth allowed over the whole run, after full collections before and after. */
const HEAP_GROWTH_BYTES = 50 * 1024 * 1024;

let t: ListeningApp;
let heapAtStart = 0;
let heapAtEnd = 0;

/** The live heap after a full collection (gc exposed at run time, so no node flag is needed). */
function liveHeap(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
const counts: Record<string, number> = {};

beforeAll(async () => {
  t = await listenTestApp();
  await insertMasterData(t.engine.db);
  // One warm-up request of each binding first: the first call of each path loads and compiles code.
  for (const [, requests] of FAMILIES) await answerOf(fc.sample(requests, { seed: SEED, numRuns: 1 })[0]);
  heapAtStart = liveHeap();
});

afterAll(async () => {
  await t.stop();
  if (LONG_RUN)
    process.stdout.write(
      `fuzz seed ${SEED}: ${JSON.stringify(counts)} cases; live heap ${heapAtStart} -> ${heapAtEnd} bytes\n`,
    );
});

async function answerOf(raw: RawRequest): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
  });
  try {
    return await Promise.race([send(t.baseUrl, raw).catch((err: unknown) => refusedTooLong(raw, err)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Node answers a request line over its header limit with 431 and closes the socket; on Node 24 the
 * client, still writing that line, may see the reset before it reads the answer.
 */
function refusedTooLong(raw: RawRequest, err: unknown): Answer {
  if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET' || raw.path.length <= http.maxHeaderSize) throw err;
  return { status: 431, headers: {}, text: '', ms: 0 };
}

const ACCEPTED_FAULT =
  /<faultcode>soap:(Client|VersionMismatch|MustUnderstand)<\/faultcode>|<soap:Value>soap:(Sender|VersionMismatch|MustUnderstand)<\/soap:Value>/;
const ROOT_MISSING = 'Server was unable to process request. ---&gt; Root element is missing.';

/** What is wrong with a SOAP answer, or undefined when the contract has it. */
function soapViolation(answer: Answer): string | undefined {
  if (answer.status === 200) return answer.text.includes('Envelope') ? undefined : 'a 200 without an envelope';
  if ([400, 413, 415].includes(answer.status)) return answer.text === '' ? undefined : `a ${answer.status} with a body`;
  if (answer.status !== 500) return `status ${answer.status}`;
  if (ACCEPTED_FAULT.test(answer.text) || answer.text.includes(ROOT_MISSING)) return undefined;
  return 'a Server/Receiver fault';
}

/** What is wrong with an HTTP GET/POST answer, or undefined when the contract has it. */
function httpViolation(answer: Answer): string | undefined {
  const type = answer.headers['content-type'] ?? '';
  if (answer.status === 200 && type.startsWith('application/json')) {
    return typeof (JSON.parse(answer.text) as { Success?: unknown }).Success === 'boolean'
      ? undefined
      : 'JSON without Success';
  }
  if (answer.status === 200)
    return answer.text.includes('<string') ? undefined : 'a 200 that is neither JSON nor <string>';
  if (answer.status === 414 || answer.status === 431) return undefined;
  if (!type.startsWith('text/plain')) return `status ${answer.status} as ${type}`;
  if ([400, 413, 415].includes(answer.status)) return undefined;
  if (answer.status !== 500) return `status ${answer.status}`;
  return answer.text.startsWith('Server was unable to process request.') ? "the server's own failure" : undefined;
}

function isSoap(raw: RawRequest): boolean {
  return raw.method === 'POST' && (raw.path === MAIN_PATH || raw.path === SYNC_PATH);
}

const FAMILIES: [string, fc.Arbitrary<RawRequest>][] = [
  ['SOAP 1.1 and 1.2 envelopes', soapRequests],
  ['HTTP GET query strings', getRequests],
  ['HTTP POST forms', formRequests],
  ['HTTP POST JSON bodies', jsonRequests],
  ['HTTP POST multipart bodies', multipartRequests],
];

describe(`fuzzing every binding (seed ${SEED}, ${RUNS_PER_FAMILY} cases per family)`, () => {
  test.each(FAMILIES)(
    '%s: every answer is a contract answer, in time',
    async (family, requests) => {
      counts[family] = 0;
      await fc.assert(
        fc.asyncProperty(requests, async (raw) => {
          counts[family] += 1;
          const answer = await answerOf(raw);
          const violation = isSoap(raw) ? soapViolation(answer) : httpViolation(answer);
          if (violation) throw new Error(`${violation}: ${answer.status} ${answer.text.slice(0, 300)}`);
        }),
        {
          seed: SEED,
          numRuns: RUNS_PER_FAMILY,
          interruptAfterTimeLimit: TIME_LIMIT_MS > 0 ? TIME_LIMIT_MS : undefined,
          markInterruptAsFailure: false,
        },
      );
      // Bounded in time, but never so short that the family proves nothing.
      expect(counts[family]).toBeGreaterThanOrEqual(Math.min(RUNS_PER_FAMILY, 50));
    },
    LONG_RUN ? 24 * 3600 * 1000 : 60_000,
  );

  test('the server still answers /health, and the heap has not grown past the bound', async () => {
    expect((await answerOf({ method: 'GET', path: '/health' })).status).toBe(200);
    heapAtEnd = liveHeap();
    expect(heapAtEnd - heapAtStart).toBeLessThan(HEAP_GROWTH_BYTES);
  });
});
