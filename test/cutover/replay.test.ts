/**
 * Replay of a HAR recording (docs/cutover.md, "Replay"): exchanges recorded from a real server of
 * this project, replayed against that server (nothing differs) and against one whose data differ in
 * one name (exactly that is reported); the exit codes; a file that is not HAR sends nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../scripts/replay';
import type { Output } from '../../scripts/output';
import { warrantyFields } from '../support/fixture';
import { listen, listenTestApp, type ListeningApp } from '../support/listen';
import { rawRequest, soapCall, type RawRequest } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';

let recordedFrom: ListeningApp;
let changed: ListeningApp;
let harFile: string;

function captured(): Output & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (line) => lines.push(line), err: (line) => lines.push(line) };
}

/** One HAR entry of an exchange with `app`, as a recording tool writes it (`host` as the client saw it). */
async function record(
  app: ListeningApp,
  request: RawRequest,
  host = new URL(app.baseUrl).host,
  base64 = false,
): Promise<object> {
  const answer = await rawRequest(Number(new URL(app.baseUrl).port), request);
  const headers = Object.entries(request.headers ?? {}).map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: new Date().toISOString(),
    request: {
      method: request.method,
      url: `http://${host}${request.path}`,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Host', value: host }, ...headers],
      queryString: [],
      ...(request.body === undefined
        ? {}
        : { postData: { mimeType: request.headers?.['content-type'] ?? '', text: request.body } }),
    },
    response: {
      status: answer.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(answer.headers).map(([name, value]) => ({ name, value: String(value) })),
      content: {
        size: answer.body.length,
        mimeType: String(answer.headers['content-type'] ?? ''),
        text: answer.body.toString(base64 ? 'base64' : 'utf8'),
        ...(base64 ? { encoding: 'base64' } : {}),
      },
    },
  };
}

beforeAll(async () => {
  [recordedFrom, changed] = await Promise.all([
    listenTestApp({ masterData: true }),
    listenTestApp({ masterData: true }),
  ]);
  await changed.engine.db.updateTable('users').set({ name: 'Anita Southern' }).where('id', '=', 'AM02').execute();
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const entries = [
    await record(recordedFrom, { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` }),
    await record(
      recordedFrom,
      { method: 'POST', path: `${MAIN}/FillProfitCenterForCustomer`, headers: form, body: 'CustomerCode=C001' },
      undefined,
      true,
    ),
    await record(recordedFrom, soapCall('1.1', MAIN, 'http://tempuri.org/', 'getPCNList', { SalesOfficer: 'SO01' })),
    await record(recordedFrom, { method: 'GET', path: '/API/SyncCustomers.asmx/HelloWorld' }),
    // Another host's entry, an entry without an answer and a write: skipped.
    await record(recordedFrom, { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` }, 'other.example:80'),
    {
      request: { method: 'GET', url: `${recordedFrom.baseUrl}${MAIN}/FillAreaManagers`, headers: [] },
      response: { status: 0, headers: [], content: {} },
    },
    await record(recordedFrom, {
      method: 'POST',
      path: `${MAIN}/CreateWarrantyRequest`,
      headers: form,
      body: new URLSearchParams(warrantyFields('replay-1')).toString(),
    }),
  ];
  harFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'replay-')), 'phone.har');
  fs.writeFileSync(
    harFile,
    JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } }),
  );
});
afterAll(async () => {
  await Promise.all([recordedFrom?.stop(), changed?.stop()]);
});

function reportDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'replay-report-'));
}

it('finds nothing different replaying against the server it was recorded from, and exits 0', async () => {
  const out = reportDir();
  const io = captured();
  expect(
    await main(
      [
        harFile,
        '--candidate',
        recordedFrom.baseUrl,
        '--out',
        out,
        '--recorded-host',
        new URL(recordedFrom.baseUrl).host,
      ],
      io,
    ),
  ).toBe(0);
  expect(io.lines.join('\n')).toContain('4 compared, 4 same, 0 different');
  const rows = JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8')).operations;
  expect(rows.find((r: { operation: string }) => r.operation === 'CreateWarrantyRequest')).toMatchObject({
    notMirrored: 1,
    compared: 0,
  });
  expect(rows.reduce((sum: number, r: { skipped: number }) => sum + r.skipped, 0)).toBe(2);
  expect(
    await recordedFrom.engine.db
      .selectFrom('warranty_requests')
      .select('request_no')
      .where('client_request_id', '=', 'replay-1')
      .execute(),
  ).toHaveLength(1);
});

it('reports the one differing name against a server whose data differ, and exits 1', async () => {
  const out = reportDir();
  const io = captured();
  expect(
    await main([harFile, '--target', changed.baseUrl, '--out', out, '--host', new URL(recordedFrom.baseUrl).host], io),
  ).toBe(1);
  const lines = fs
    .readFileSync(path.join(out, 'differences.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({
    operation: 'FillAreaManagers',
    binding: 'get',
    differences: ['Data[0].Name: "Anita South" / "Anita Southern"'],
  });
  expect(
    await main(
      [
        harFile,
        '--target',
        changed.baseUrl,
        '--out',
        reportDir(),
        '--host',
        new URL(recordedFrom.baseUrl).host,
        '--ignore',
        'Data[*].Name',
      ],
      captured(),
    ),
  ).toBe(0);
});

it('--include-writes sends the writes too', async () => {
  const io = captured();
  await main(
    [harFile, '--target', changed.baseUrl, '--out', reportDir(), '--include-writes', '--ignore', 'Data[*].Name'],
    io,
  );
  expect(
    await changed.engine.db
      .selectFrom('warranty_requests')
      .select('request_no')
      .where('client_request_id', '=', 'replay-1')
      .execute(),
  ).toHaveLength(1);
});

it('refuses a file that is not HAR or not there with exit code 2, naming it and what is wrong, and sends nothing', async () => {
  let requests = 0;
  const target = await listen((_req, res) => {
    requests += 1;
    res.end();
  });
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-bad-'));
    const cases: [string, string][] = [
      ['{"log": {}}', 'no log.entries array'],
      ['not json', 'not JSON'],
      [
        '{"log": {"entries": [{"request": {"method": "GET", "url": "/relative"}}]}}',
        'log.entries[0].request.url: not an absolute URL',
      ],
    ];
    for (const [text, message] of cases) {
      const file = path.join(dir, 'bad.har');
      fs.writeFileSync(file, text);
      const io = captured();
      // The URL first: the file is still named as the file.
      expect(await main(['--target', target.baseUrl, file, '--out', reportDir()], io)).toBe(2);
      expect(io.lines).toEqual([expect.stringContaining(`replay: ${file}: `)]);
      expect(io.lines[0]).toContain(message);
    }
    const missing = captured();
    expect(await main([path.join(dir, 'none.har'), '--target', target.baseUrl], missing)).toBe(2);
    expect(missing.lines).toEqual([expect.stringContaining(`replay: ${path.join(dir, 'none.har')}: ENOENT`)]);
    const usage = captured();
    expect(await main(['--target', target.baseUrl], usage)).toBe(2);
    expect(usage.lines).toEqual(['replay: one HAR file is required', expect.stringMatching(/^usage: npm run replay/)]);
    expect(requests).toBe(0);
  } finally {
    await target.stop();
  }
});

it('--rate N sends at most N requests a second', async () => {
  const started = Date.now();
  const io = captured();
  expect(
    await main(
      [
        harFile,
        '--candidate',
        recordedFrom.baseUrl,
        '--out',
        reportDir(),
        '--recorded-host',
        new URL(recordedFrom.baseUrl).host,
        '--rate',
        '5',
      ],
      io,
    ),
  ).toBe(0);
  // Four requests are sent (the others are skipped or writes): the fourth no sooner than 3/5 s after the first.
  expect(io.lines.join('\n')).toContain('4 compared');
  expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  expect(await main([harFile, '--candidate', recordedFrom.baseUrl, '--rate', '0'], captured())).toBe(2);
});
