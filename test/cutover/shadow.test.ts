/**
 * Shadow mode between two real servers of this project (docs/cutover.md): the candidate's data
 * differ from the primary's in one place (an area manager's name), and traffic of every binding goes
 * through the proxy. Exactly the exchanges that show that name are reported; clients get the primary's
 * bytes; writes reach the primary only; a candidate that is down or hangs costs clients nothing.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { main as shadowMain } from '../../scripts/shadow';
import type { Shadow, ShadowOptions } from '../../src/cutover/shadow';
import type { OperationSummary } from '../../src/cutover/report';
import { warrantyFields } from '../support/fixture';
import { listen, listenTestApp, type Listening, type ListeningApp } from '../support/listen';
import { differingPair, proxyBetween, rawRequest, soapCall, type RawAnswer } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';
const V2 = '/API/v2/MobileAppWebService.asmx';

let primary: ListeningApp;
let candidate: ListeningApp;

beforeAll(async () => {
  [primary, candidate] = await differingPair();
});
afterAll(async () => {
  await Promise.all([primary?.stop(), candidate?.stop()]);
});

function startProxy(overrides: Partial<ShadowOptions> = {}): Promise<Shadow> {
  return proxyBetween(primary, candidate, overrides);
}

function row(shadow: Shadow, operation: string, binding: string, contract = 'legacy'): OperationSummary | undefined {
  return shadow.report
    .summary()
    .operations.find((r) => r.operation === operation && r.binding === binding && r.contract === contract);
}

function differences(
  shadow: Shadow,
): { operation: string; binding: string; contract: string; differences: string[]; request: { headers: object } }[] {
  return fs
    .readFileSync(path.join(shadow.report.dir, 'differences.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('shadow mode between two servers whose data differ in one name', () => {
  let shadow: Shadow;
  const answers = new Map<string, RawAnswer>();

  beforeAll(async () => {
    shadow = await startProxy();
    const via = (request: Parameters<typeof rawRequest>[1]) => rawRequest(shadow.port, request);
    const form = 'username=admin';
    answers.set(
      'get',
      await via({
        method: 'GET',
        path: `${MAIN}/FillAreaManagers?${form}`,
        headers: { authorization: 'Basic c2VjcmV0OnNlY3JldA==' },
      }),
    );
    answers.set(
      'post',
      await via({
        method: 'POST',
        path: `${MAIN}/FillAreaManagers`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      }),
    );
    answers.set(
      'soap11',
      await via(soapCall('1.1', MAIN, 'http://tempuri.org/', 'FillAreaManagers', { username: 'admin' })),
    );
    answers.set(
      'soap12',
      await via(soapCall('1.2', MAIN, 'http://tempuri.org/', 'FillAreaManagers', { username: 'admin' })),
    );
    answers.set(
      'v2',
      await via(soapCall('1.1', V2, primary.settings.apiV2Namespace, 'FillAreaManagers', { username: 'admin' })),
    );
    answers.set('profit', await via({ method: 'GET', path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001` }));
    answers.set('wsdl', await via({ method: 'GET', path: `${MAIN}?WSDL`, headers: { 'accept-encoding': 'gzip' } }));
    answers.set(
      'hello',
      await via(soapCall('1.2', '/API/SyncCustomers.asmx', 'http://tempuri.org/', 'HelloWorld', {})),
    );
    answers.set('openapi', await via({ method: 'GET', path: '/API/openapi.json' }));
    await shadow.settled();
  });
  afterAll(() => shadow?.close());

  it('reports exactly the exchanges that show the differing name, at the path where it differs', () => {
    const found = differences(shadow);
    expect(found.map((d) => `${d.contract} ${d.operation} ${d.binding}`).sort()).toEqual([
      'legacy FillAreaManagers get',
      'legacy FillAreaManagers post',
      'v2 FillAreaManagers soap11',
    ]);
    const get = found.find((d) => d.binding === 'get')!;
    expect(get.differences).toEqual(['Data[0].Name: "Anita South" / "Anita Southern"']);
    const v2 = found.find((d) => d.contract === 'v2')!;
    expect(v2.differences).toEqual([
      'FillAreaManagersResponse/FillAreaManagersResult/Data/AreaManager[1]/Name: Anita South / Anita Southern',
    ]);
  });

  it('counts the rest as the same, the legacy SOAP answers and the documents included', () => {
    for (const [operation, binding, contract] of [
      ['FillAreaManagers', 'soap11', 'legacy'],
      ['FillAreaManagers', 'soap12', 'legacy'],
      ['FillProfitCenterForCustomer', 'get', 'legacy'],
      ['wsdl', 'document', 'legacy'],
      ['HelloWorld', 'soap12', 'legacy'],
      ['openapi', 'document', 'legacy'],
    ]) {
      expect(row(shadow, operation, binding, contract)).toMatchObject({ compared: 1, same: 1, different: 0 });
    }
    expect(row(shadow, 'FillAreaManagers', 'get')).toMatchObject({ compared: 1, same: 0, different: 1 });
  });

  it("gives the client the primary's answer, byte for byte", async () => {
    for (const [key, request] of [
      [
        'get',
        {
          method: 'GET',
          path: `${MAIN}/FillAreaManagers?username=admin`,
          headers: { authorization: 'Basic c2VjcmV0OnNlY3JldA==' },
        },
      ],
      [
        'wsdl',
        {
          method: 'GET',
          path: `${MAIN}?WSDL`,
          headers: { 'accept-encoding': 'gzip', host: `127.0.0.1:${shadow.port}` },
        },
      ],
    ] as const) {
      const direct = await rawRequest(Number(new URL(primary.baseUrl).port), request);
      expect(answers.get(key)!.status).toBe(direct.status);
      expect(answers.get(key)!.headers['content-type']).toBe(direct.headers['content-type']);
      expect(answers.get(key)!.headers['content-encoding']).toBe(direct.headers['content-encoding']);
      expect(answers.get(key)!.body.equals(direct.body)).toBe(true);
    }
    expect(answers.get('wsdl')!.headers['content-encoding']).toBe('gzip');
  });

  it('keeps credentials out of the report', () => {
    const get = differences(shadow).find((d) => d.binding === 'get')!;
    expect(JSON.stringify(get.request.headers)).not.toMatch(/authorization|c2VjcmV0/i);
    expect(fs.readFileSync(path.join(shadow.report.dir, 'differences.jsonl'), 'utf8')).not.toContain('c2VjcmV0');
  });

  it('writes summary.json and summary.html, and answers its own metrics and summary', async () => {
    shadow.report.write();
    const summary = JSON.parse(fs.readFileSync(path.join(shadow.report.dir, 'summary.json'), 'utf8'));
    expect(summary.operations).toContainEqual(
      expect.objectContaining({
        service: 'MobileAppWebService',
        contract: 'legacy',
        operation: 'FillAreaManagers',
        binding: 'get',
        compared: 1,
        different: 1,
        noisyFields: [],
      }),
    );
    const html = fs.readFileSync(path.join(shadow.report.dir, 'summary.html'), 'utf8');
    expect(html).toContain('Data[0].Name: \\&quot;Anita South\\&quot; / \\&quot;Anita Southern\\&quot;');
    const metrics = await rawRequest(shadow.port, { method: 'GET', path: '/__shadow/metrics' });
    expect(metrics.body.toString()).toContain(
      'shadow_exchanges_total{service="MobileAppWebService",contract="legacy",operation="FillAreaManagers",binding="get",outcome="different"} 1',
    );
    const own = await rawRequest(shadow.port, { method: 'GET', path: '/__shadow/summary' });
    expect(JSON.parse(own.body.toString()).operations).toEqual(summary.operations);
  });

  it('--ignore leaves a path out of the comparison', async () => {
    const ignoring = await startProxy({
      ignore: ['Data[*].Name', 'FillAreaManagersResponse/FillAreaManagersResult/Data/AreaManager[*]/Name'],
    });
    try {
      await rawRequest(ignoring.port, { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` });
      await rawRequest(
        ignoring.port,
        soapCall('1.1', V2, primary.settings.apiV2Namespace, 'FillAreaManagers', { username: 'admin' }),
      );
      await ignoring.settled();
      expect(row(ignoring, 'FillAreaManagers', 'get')).toMatchObject({ compared: 1, same: 1 });
      expect(row(ignoring, 'FillAreaManagers', 'soap11', 'v2')).toMatchObject({ compared: 1, same: 1 });
    } finally {
      await ignoring.close();
    }
  });
});

describe('writes', () => {
  it('reach the primary only, and are counted as not mirrored', async () => {
    const shadow = await startProxy();
    try {
      const body = new URLSearchParams(warrantyFields('shadow-write-1')).toString();
      const answer = await rawRequest(shadow.port, {
        method: 'POST',
        path: `${MAIN}/CreateWarrantyRequest`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString()).Success).toBe(true);
      await shadow.settled();
      const stored = (app: ListeningApp) =>
        app.engine.db
          .selectFrom('warranty_requests')
          .select('request_no')
          .where('client_request_id', '=', 'shadow-write-1')
          .execute();
      expect(await stored(primary)).toHaveLength(1);
      expect(await stored(candidate)).toHaveLength(0);
      expect(row(shadow, 'CreateWarrantyRequest', 'post')).toMatchObject({ notMirrored: 1, compared: 0 });
    } finally {
      await shadow.close();
    }
  });

  it('reach the candidate too with --mirror-writes', async () => {
    const shadow = await startProxy({ mirrorWrites: true });
    try {
      const body = new URLSearchParams(warrantyFields('shadow-write-2')).toString();
      await rawRequest(shadow.port, {
        method: 'POST',
        path: `${MAIN}/CreateWarrantyRequest`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      await shadow.settled();
      const stored = await candidate.engine.db
        .selectFrom('warranty_requests')
        .select('request_no')
        .where('client_request_id', '=', 'shadow-write-2')
        .execute();
      expect(stored).toHaveLength(1);
      expect(row(shadow, 'CreateWarrantyRequest', 'post')).toMatchObject({ notMirrored: 0, compared: 1 });
    } finally {
      await shadow.close();
    }
  });
});

describe('a candidate that fails', () => {
  const request = { method: 'GET', path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001` };

  it('that is down costs clients nothing and is counted', async () => {
    const closed = await listen((_req, res) => res.end());
    await closed.stop();
    const shadow = await startProxy({ candidate: closed.baseUrl });
    try {
      const answer = await rawRequest(shadow.port, request);
      expect(answer.status).toBe(200);
      await shadow.settled();
      expect(row(shadow, 'FillProfitCenterForCustomer', 'get')).toMatchObject({ candidateErrors: 1, compared: 0 });
    } finally {
      await shadow.close();
    }
  });

  it('that hangs costs clients nothing: its call times out in the background, and overflow is dropped', async () => {
    const hanging: Listening = await listen(() => undefined);
    const shadow = await startProxy({ candidate: hanging.baseUrl, timeoutMs: 2000, concurrency: 1, queueLength: 1 });
    try {
      const started = Date.now();
      for (let i = 0; i < 4; i++) expect((await rawRequest(shadow.port, request)).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1500);
      await shadow.settled();
      // One under way, one queued, two dropped; the two sent time out.
      expect(row(shadow, 'FillProfitCenterForCustomer', 'get')).toMatchObject({
        candidateErrors: 2,
        dropped: 2,
        compared: 0,
      });
    } finally {
      await shadow.close();
      await hanging.stop();
    }
  });
});

describe('noise', () => {
  /** Changes with every call to any stand-in, as a time or a generated id would. */
  let stamp = 0;

  /** A stand-in whose answers carry the stamp; `calls` counts its own. */
  async function stamped(): Promise<Listening & { calls: () => number }> {
    let calls = 0;
    const server = await listen((_req, res) => {
      calls += 1;
      stamp += 1;
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ Success: true, Data: [{ Stamp: stamp, Name: 'Sunil' }] }));
    });
    return { ...server, calls: () => calls };
  }

  async function fiveReads(shadow: Shadow): Promise<void> {
    for (let i = 0; i < 5; i++) {
      await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/getPCNList?SalesOfficer=SO01` });
      await shadow.settled();
    }
  }

  it('is learnt from the candidate asked twice, and never from the primary asked again', async () => {
    const [noisyPrimary, noisyCandidate] = await Promise.all([stamped(), stamped()]);
    const shadow = await startProxy({
      primary: noisyPrimary.baseUrl,
      candidate: noisyCandidate.baseUrl,
      noiseEvery: 1,
    });
    try {
      await fiveReads(shadow);
      // Noisy from the third time the candidate's own answers differed there.
      expect(row(shadow, 'getPCNList', 'get')).toMatchObject({
        compared: 5,
        different: 2,
        same: 3,
        noisy: 3,
        noisyFields: ['Data[*].Stamp'],
      });
      expect([noisyPrimary.calls(), noisyCandidate.calls()]).toEqual([5, 10]);
    } finally {
      await shadow.close();
      await Promise.all([noisyPrimary.stop(), noisyCandidate.stop()]);
    }
  });

  it('is learnt from a second legacy instance with --secondary, the candidate asked once', async () => {
    const [noisyPrimary, noisySecondary, noisyCandidate] = await Promise.all([stamped(), stamped(), stamped()]);
    const shadow = await startProxy({
      primary: noisyPrimary.baseUrl,
      secondary: noisySecondary.baseUrl,
      candidate: noisyCandidate.baseUrl,
      noiseEvery: 1,
    });
    try {
      await fiveReads(shadow);
      expect(row(shadow, 'getPCNList', 'get')).toMatchObject({
        compared: 5,
        different: 2,
        same: 3,
        noisy: 3,
        noisyFields: ['Data[*].Stamp'],
      });
      expect([noisyPrimary.calls(), noisySecondary.calls(), noisyCandidate.calls()]).toEqual([5, 5, 5]);
    } finally {
      await shadow.close();
      await Promise.all([noisyPrimary.stop(), noisySecondary.stop(), noisyCandidate.stop()]);
    }
  });

  it('leaves a real primary with exactly one request per client request, of every binding', async () => {
    const secondary = await listenTestApp({ masterData: true });
    const servers = { primary: primary.server, secondary: secondary.server, candidate: candidate.server };
    const seen = { primary: 0, secondary: 0, candidate: 0 };
    const counters = (Object.keys(servers) as (keyof typeof servers)[]).map((name) => {
      const count = () => (seen[name] += 1);
      servers[name].on('request', count);
      return () => servers[name].off('request', count);
    });
    const reads = [
      { method: 'GET', path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001` },
      {
        method: 'POST',
        path: `${MAIN}/FillProfitCenterForCustomer`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'CustomerCode=C001',
      },
      soapCall('1.1', MAIN, 'http://tempuri.org/', 'getPCNList', { SalesOfficer: 'SO01' }),
      soapCall('1.2', MAIN, 'http://tempuri.org/', 'FillAreaManagers', { username: 'admin' }),
      { method: 'GET', path: `${MAIN}?WSDL` },
    ];
    try {
      for (const [secondaryUrl, candidateCalls] of [
        [undefined, 2],
        [secondary.baseUrl, 1],
      ] as const) {
        Object.assign(seen, { primary: 0, secondary: 0, candidate: 0 });
        const shadow = await startProxy({ secondary: secondaryUrl, noiseEvery: 1 });
        try {
          for (let round = 0; round < 4; round++)
            for (const read of reads) expect((await rawRequest(shadow.port, read)).status).toBe(200);
          await shadow.settled();
        } finally {
          await shadow.close();
        }
        const n = 4 * reads.length;
        expect(seen).toEqual({
          primary: n,
          secondary: secondaryUrl === undefined ? 0 : n,
          candidate: candidateCalls * n,
        });
      }
    } finally {
      for (const stop of counters) stop();
      await secondary.stop();
    }
  });
});

describe('as a reverse proxy', () => {
  /** Answers with the headers it was sent, as JSON. */
  const echo = (req: http.IncomingMessage, res: http.ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
  let tlsPrimary: https.Server;
  let tlsUrl: string;
  let caFile: string;

  beforeAll(async () => {
    // A primary on HTTPS with a self-signed certificate for 127.0.0.1 (tls/, valid for a century), as a legacy IIS server often is.
    const dir = path.join(__dirname, 'tls');
    caFile = path.join(dir, 'cert.pem');
    tlsPrimary = https.createServer(
      { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(caFile) },
      echo,
    );
    await new Promise<void>((resolve) => tlsPrimary.listen(0, '127.0.0.1', resolve));
    tlsUrl = `https://127.0.0.1:${(tlsPrimary.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => tlsPrimary.close(() => resolve())));

  it('passes the Host on, adds X-Forwarded-*, and drops the hop-by-hop headers', async () => {
    const shadow = await startProxy({ primary: tlsUrl, candidate: primary.baseUrl, ca: fs.readFileSync(caFile) });
    try {
      const answer = await rawRequest(shadow.port, {
        method: 'GET',
        path: '/anything',
        headers: {
          host: 'app.example:8443',
          connection: 'keep-alive, x-drop',
          'x-drop': '1',
          'keep-alive': 'timeout=5',
          'x-kept': '1',
        },
      });
      expect(answer.status).toBe(200);
      const seen = JSON.parse(answer.body.toString());
      expect(seen).toMatchObject({
        host: 'app.example:8443',
        'x-forwarded-for': '127.0.0.1',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': 'app.example:8443',
        'x-kept': '1',
      });
      expect(Object.keys(seen)).not.toEqual(expect.arrayContaining(['x-drop']));
      expect(seen['keep-alive']).toBeUndefined();
    } finally {
      await shadow.close();
    }
  });

  it('refuses a certificate it cannot verify (502), unless given its CA or told --insecure', async () => {
    for (const [tls, status] of [
      [{}, 502],
      [{ insecure: true }, 200],
      [{ ca: fs.readFileSync(caFile) }, 200],
    ] as const) {
      const shadow = await startProxy({ primary: tlsUrl, candidate: primary.baseUrl, ...tls });
      try {
        expect((await rawRequest(shadow.port, { method: 'GET', path: '/anything' })).status).toBe(status);
      } finally {
        await shadow.close();
      }
    }
  });
});

describe('npm run shadow', () => {
  it('refuses bad arguments with exit code 2 and the usage, starting nothing', async () => {
    for (const argv of [
      [],
      ['--primary', primary.baseUrl],
      ['--primary', 'ftp://x', '--candidate', candidate.baseUrl],
      ['--primary', primary.baseUrl, '--candidate', candidate.baseUrl, '--port', '70000'],
      ['--bogus'],
    ]) {
      const lines: string[] = [];
      expect(await shadowMain(argv, { out: (line) => lines.push(line), err: (line) => lines.push(line) })).toBe(2);
      expect(lines.join('\n')).toContain('usage: npm run shadow --');
    }
  });
});

describe('memory held for comparisons', () => {
  it('is bounded: past the budget answers are compared by digest, and calls that do not fit are dropped', async () => {
    const shadow = await startProxy({ heldBytes: 100 });
    try {
      await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` });
      await shadow.settled();
      // The answer (over 100 bytes) was captured within the budget only, so it went by digest, and differs.
      expect(row(shadow, 'FillAreaManagers', 'get')).toMatchObject({ compared: 1, different: 1, byDigest: 1 });
      const big = await startProxy({ heldBytes: 0 });
      try {
        await rawRequest(big.port, {
          method: 'POST',
          path: `${MAIN}/FillAreaManagers`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'username=admin',
        });
        await big.settled();
        expect(row(big, 'FillAreaManagers', 'post')).toMatchObject({ compared: 0, dropped: 1 });
      } finally {
        await big.close();
      }
    } finally {
      await shadow.close();
    }
  });
});
