/**
 * The worst bodies and query strings a client can send to the HTTP GET and POST bindings within the
 * default limits, against the real app on a real socket (docs/operations.md, "Input limits"). Before
 * the JSON depth bound, a JSON body nested 100,000 deep was answered 500 "Server was unable to process
 * request." (RangeError: Maximum call stack size exceeded): the client's mistake reported as the
 * server's. Now: deeper than MAX_JSON_DEPTH is 400 text/plain, more than MAX_REQUEST_FIELDS fields 413
 * text/plain, and every case is answered well within 2 s while /health keeps answering.
 */
import { loadSettings } from '../../src/config';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { MAIN_PATH } from '../support/interface-table';
import {
  READ_WHOLE_WITHIN_MS,
  expectQuickAndHealthy,
  sendWithHealth,
  type Answer,
  type HostileOutcome,
} from './hostile-support';

const MiB = 1024 * 1024;
const FILL = 4 * MiB - 4096;
/** An operation without contract parameters that reads and ignores unknown fields. */
const OPEN = `${MAIN_PATH}/FillProfitCenterForCustomer`;
/** An operation with a contract parameter (username), so a form body. */
const FORM_OP = `${MAIN_PATH}/FillAreaManagers`;
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

let t: ListeningApp;

beforeAll(async () => {
  t = await listenTestApp();
});

afterAll(() => t.stop());

const post = (path: string, contentType: string, body: string | Buffer) =>
  sendWithHealth(t.baseUrl, { method: 'POST', path, headers: { 'Content-Type': contentType }, body });

function expectPlain(answer: Answer, status: number, text: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(answer.text).toBe(`${text}\r\n`);
}

function expectJson(answer: Answer): Record<string, unknown> {
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(answer.text) as Record<string, unknown>;
}

const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.floor(bytes / unit.length));

/** A refusal: within 2 s. A body read whole (`whole`): linear in its size, within READ_WHOLE_WITHIN_MS. */
function checked(outcome: HostileOutcome, whole = false): Answer {
  expectQuickAndHealthy(outcome, whole ? READ_WHOLE_WITHIN_MS : undefined);
  return outcome.answer;
}

describe('JSON bodies', () => {
  const TOO_DEEP = 'Request body is nested deeper than 64 levels.';

  test.each([
    ['100,000 nested arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['100,000 nested objects in a member', `{"a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`],
    ['4 MiB of open brackets', repeatTo('[', FILL)],
    ['65 levels, one over the bound', `{"a":${'['.repeat(64)}${']'.repeat(64)}}`],
  ])('%s: 400 text/plain, never a server fault', async (_name, body) => {
    expectPlain(checked(await post(OPEN, JSON_TYPE, body)), 400, TOO_DEEP);
  });

  test('64 levels are read; brackets inside strings do not count', async () => {
    const atBound = `{"a":${'['.repeat(63)}${']'.repeat(63)},"b":"${'['.repeat(100_000)}"}`;
    expect(expectJson(checked(await post(OPEN, JSON_TYPE, atBound)))).toMatchObject({ Success: true });
  });

  test('350,000 members: 413 text/plain before they are parsed', async () => {
    const body = `{${Array.from({ length: 350_000 }, (_, i) => `"a${i}":1`).join(',')}}`;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4 * MiB);
    expectPlain(checked(await post(OPEN, JSON_TYPE, body)), 413, 'Request has more than 1000 fields.');
  });

  test('1,000 members are read', async () => {
    const body = `{${Array.from({ length: 1000 }, (_, i) => `"a${i}":1`).join(',')}}`;
    expect(expectJson(checked(await post(OPEN, JSON_TYPE, body)))).toMatchObject({ Success: true });
  });

  test.each([
    ['a 4 MiB string of escapes', `{"a":"${repeatTo('\\u0041', FILL)}"}`],
    ['a 4 MiB number', `{"a":${repeatTo('1', FILL)}}`],
    ['one member repeated 500,000 times', `{${repeatTo('"a":1,', FILL)}"a":1}`],
    ['a 4 MiB array at depth 2', `{"a":[${repeatTo('1,', FILL)}1]}`],
  ])('%s: answered in time', async (_name, body) => {
    const answer = checked(await post(OPEN, JSON_TYPE, body), true);
    if (answer.status === 413) expectPlain(answer, 413, 'Request has more than 1000 fields.');
    else expect(expectJson(answer)).toMatchObject({ Success: true });
  });
});

describe('form bodies', () => {
  test('2,000,000 empty fields: 413 after the 1,000th', async () => {
    expectPlain(
      checked(await post(FORM_OP, FORM_TYPE, repeatTo('a&', FILL))),
      413,
      'Request has more than 1000 fields.',
    );
  });

  test.each([
    ['a 4 MiB value of plus signs', `username=${repeatTo('+', FILL)}`],
    ['a 4 MiB value of percent escapes', `username=${repeatTo('%41', FILL)}`],
    ['a 4 MiB value of broken percent escapes', `username=${repeatTo('%%4', FILL)}`],
    ['a 4 MiB name', `${repeatTo('n', FILL)}=1`],
    ['1,000 repeated parameters', Array.from({ length: 1000 }, () => 'username=x').join('&')],
  ])('%s: answered in time', async (_name, body) => {
    const answer = expectJson(checked(await post(FORM_OP, FORM_TYPE, body), true));
    expect(answer.Success === true || answer.Code === 'NOT_FOUND' || answer.Code === 'INVALID_PARAMETER').toBe(true);
  });
});

describe('multipart bodies', () => {
  const boundary = 'XyZ';
  const type = `multipart/form-data; boundary=${boundary}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const end = `--${boundary}--\r\n`;

  test('77,000 fields: 413 after the 1,000th part', async () => {
    const body = repeatTo(field('a', '1'), FILL) + end;
    expectPlain(checked(await post(OPEN, type, body)), 413, 'Request has more than 1000 fields.');
  });

  test('60,000 file parts to an operation without files: refused at the files limit', async () => {
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="x.png"\r\n\r\n1\r\n`;
    const answer = expectJson(checked(await post(OPEN, type, repeatTo(part, FILL) + end)));
    expect(answer).toMatchObject({ Success: false, Code: 'PAYLOAD_TOO_LARGE' });
  });

  test.each([
    [
      'a part header with 100,000 parameters',
      `--${boundary}\r\nContent-Disposition: form-data; name="a"; ${Array.from({ length: 100_000 }, (_, i) => `p${i}="v"`).join('; ')}\r\n\r\n1\r\n${end}`,
    ],
    ['a 4 MiB part name', field(repeatTo('n', FILL), '1') + end],
    ['4 MiB of near-boundaries in a value', field('a', repeatTo(`--${boundary.slice(0, 2)}\r\n`, FILL)) + end],
  ])('%s: answered in time', async (_name, body) => {
    const answer = checked(await post(OPEN, type, body), true);
    if (answer.status === 500) expectPlain(answer, 500, `Request format is invalid: ${type}.`);
    else expect(expectJson(answer)).toMatchObject({ Success: true });
  });
});

describe('multipart bodies the fuzz suite found (test/fuzz)', () => {
  const type = 'multipart/form-data; boundary=B';

  test('a field part with name="" was a server fault (busboy gives no name): now an unknown field, ignored', async () => {
    const body = '--B\r\nContent-Disposition: form-data; name=""\r\n\r\n\r\n--B--\r\n';
    expect(expectJson(checked(await post(OPEN, type, body)))).toMatchObject({ Success: true });
  });

  test.each([
    ['an operation that takes files', `${MAIN_PATH}/WarrantyRequestFiles`],
    ['an operation that does not', OPEN],
  ])(
    'a body ending inside a file part (%s) errored the file stream with nobody listening: now Request format is invalid',
    async (_name, path) => {
      const body = '--B\r\nContent-Disposition: form-data; name="f"; filename="a.png"\r\n\r\n\x89PNG';
      expectPlain(checked(await post(path, type, body)), 500, `Request format is invalid: ${type}.`);
      expect((await sendWithHealth(t.baseUrl, { method: 'GET', path: '/health' })).answer.status).toBe(200);
    },
  );
});

describe('query strings (bounded by the 16 KiB header limit)', () => {
  test.each([
    ['8,000 parameters', Array.from({ length: 8000 }, () => 'a').join('&')],
    ['1,400 repeated parameters', Array.from({ length: 1400 }, () => 'username=x').join('&')],
    ['a 15 KiB name', `${'n'.repeat(15_000)}=1`],
    ['a 15 KiB value of escapes', `username=${repeatTo('%41', 15_000)}`],
  ])('%s: answered at once', async (_name, query) => {
    const outcome = await sendWithHealth(t.baseUrl, { method: 'GET', path: `${FORM_OP}?${query}` });
    const answer = expectJson(checked(outcome));
    expect(answer.Success === true || answer.Code === 'NOT_FOUND' || answer.Code === 'INVALID_PARAMETER').toBe(true);
  });
});

describe('the bounds are settings', () => {
  let small: ListeningApp;
  beforeAll(async () => {
    small = await listenTestApp({ env: { MAX_JSON_DEPTH: '3', MAX_REQUEST_FIELDS: '10' } });
  });
  afterAll(() => small.stop());

  const send = (contentType: string, body: string) =>
    sendWithHealth(small.baseUrl, { method: 'POST', path: OPEN, headers: { 'Content-Type': contentType }, body }).then(
      (o) => o.answer,
    );

  test.each([
    ['MAX_XML_DEPTH', '7'],
    ['MAX_XML_DEPTH', '1001'],
    ['MAX_XML_NODES', '99'],
    ['MAX_JSON_DEPTH', '1'],
    ['MAX_JSON_DEPTH', 'deep'],
    ['MAX_REQUEST_FIELDS', '9'],
  ])('%s=%s stops the start with a line naming it', (variable, value) => {
    expect(() => loadSettings({ [variable]: value })).toThrow(new RegExp(`^${variable}: `));
  });

  test('MAX_JSON_DEPTH=3', async () => {
    expect(expectJson(await send(JSON_TYPE, '{"a":[[1]]}'))).toMatchObject({ Success: true });
    expectPlain(await send(JSON_TYPE, '{"a":[[[1]]]}'), 400, 'Request body is nested deeper than 3 levels.');
  });

  test('MAX_REQUEST_FIELDS=10, in a form, a JSON object and multipart', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);
    expect(
      expectJson(
        await send(
          FORM_TYPE,
          names(10)
            .map((n) => `${n}=1`)
            .join('&'),
        ),
      ),
    ).toMatchObject({ Success: true });
    expectPlain(
      await send(
        FORM_TYPE,
        names(11)
          .map((n) => `${n}=1`)
          .join('&'),
      ),
      413,
      'Request has more than 10 fields.',
    );
    expect(
      expectJson(
        await send(
          JSON_TYPE,
          `{${names(10)
            .map((n) => `"${n}":1`)
            .join(',')}}`,
        ),
      ),
    ).toMatchObject({ Success: true });
    expectPlain(
      await send(
        JSON_TYPE,
        `{${names(11)
          .map((n) => `"${n}":1`)
          .join(',')}}`,
      ),
      413,
      'Request has more than 10 fields.',
    );
    const part = (n: string) => `--b\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n1\r\n`;
    const multipart = (n: number) => names(n).map(part).join('') + '--b--\r\n';
    expect(expectJson(await send('multipart/form-data; boundary=b', multipart(10)))).toMatchObject({ Success: true });
    expectPlain(await send('multipart/form-data; boundary=b', multipart(11)), 413, 'Request has more than 10 fields.');
  });
});
