/**
 * What users of traffic tools ask of the shadow proxy (docs/cutover.md): a fraction of reads mirrored
 * (--sample), and the client exchanges recorded as HAR (--record) for a later replay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main as replayMain } from '../../scripts/replay';
import type { Shadow, ShadowOptions } from '../../src/cutover/shadow';
import type { OperationSummary } from '../../src/cutover/report';
import { differingPairForFile, rawRequest, soapCall } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';

const servers = differingPairForFile();
const startProxy = (overrides: Partial<ShadowOptions> = {}): Promise<Shadow> => servers.proxy(overrides);

function row(shadow: Shadow, operation: string, binding: string): OperationSummary | undefined {
  return shadow.report.summary().operations.find((r) => r.operation === operation && r.binding === binding);
}

describe('--sample', () => {
  it('mirrors that fraction of reads, the others counted as not sampled; writes are not sampled', async () => {
    let seen = 0;
    const count = () => (seen += 1);
    servers.candidate.server.on('request', count);
    const shadow = await startProxy({ sample: 0.25 });
    try {
      for (let i = 0; i < 40; i++)
        expect(
          (
            await rawRequest(shadow.port, {
              method: 'GET',
              path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001`,
            })
          ).status,
        ).toBe(200);
      await shadow.settled();
      const counted = row(shadow, 'FillProfitCenterForCustomer', 'get')!;
      // An even spread: within one of the fraction asked for.
      expect(Math.abs(counted.compared - 10)).toBeLessThanOrEqual(1);
      expect(counted.compared + counted.notSampled).toBe(40);
      expect(seen).toBe(counted.compared);
    } finally {
      servers.candidate.server.off('request', count);
      await shadow.close();
    }
  });

  it('0 mirrors nothing and 1 everything', async () => {
    for (const [sample, compared] of [
      [0, 0],
      [1, 8],
    ] as const) {
      const shadow = await startProxy({ sample });
      try {
        for (let i = 0; i < 8; i++)
          await rawRequest(shadow.port, {
            method: 'GET',
            path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001`,
          });
        await shadow.settled();
        expect(row(shadow, 'FillProfitCenterForCustomer', 'get')).toMatchObject({ compared, notSampled: 8 - compared });
      } finally {
        await shadow.close();
      }
    }
  });
});

describe('--record', () => {
  const secrets = ['c2VjcmV0OnNlY3JldA', 'cookie-value', 'key-value', 'hunter2', 'url-pass', 's3cret'];
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const exchanges = [
    {
      method: 'GET',
      path: `${MAIN}/FillAreaManagers?username=admin&password=hunter2`,
      headers: {
        authorization: 'Basic c2VjcmV0OnNlY3JldA==',
        cookie: 'ASP.NET_SessionId=cookie-value',
        'x-api-key': 'key-value',
      },
    },
    {
      method: 'POST',
      path: `${MAIN}/FillProfitCenterForCustomer`,
      headers: form,
      body: 'CustomerCode=C001&Password=s3cret',
    },
    soapCall('1.1', MAIN, 'http://tempuri.org/', 'getPCNList', { SalesOfficer: 'SO01', Password: 's3cret' }),
    { method: 'GET', path: `${MAIN}?WSDL`, headers: { 'accept-encoding': 'gzip' } },
  ];

  it('writes the client exchanges as HAR 1.2 without credentials, owner-only, and replay finds them the same', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
    const har = path.join(dir, 'traffic.har');
    const shadow = await startProxy({ record: har });
    try {
      for (const exchange of exchanges) expect((await rawRequest(shadow.port, exchange)).status).toBe(200);
      await shadow.settled();
    } finally {
      await shadow.close();
    }
    expect((fs.statSync(har).mode & 0o777).toString(8)).toBe('600');
    const text = fs.readFileSync(har, 'utf8');
    for (const secret of secrets) expect([secret, text.includes(secret)]).toEqual([secret, false]);
    const log = JSON.parse(text).log;
    expect(log.version).toBe('1.2');
    expect(log.entries).toHaveLength(exchanges.length);
    expect(log.entries[0].request.url).toBe(
      `http://127.0.0.1:${shadow.port}${MAIN}/FillAreaManagers?username=admin&password=REDACTED`,
    );
    const io = {
      lines: [] as string[],
      out: (line: string) => io.lines.push(line),
      err: (line: string) => io.lines.push(line),
    };
    expect(await replayMain([har, '--candidate', servers.primary.baseUrl, '--out', path.join(dir, 'replay')], io)).toBe(
      0,
    );
    expect(io.lines.join('\n')).toContain(`${exchanges.length} compared, ${exchanges.length} same`);
  });

  it('stops at its size budget, what is left out counted in the summary', async () => {
    const har = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'record-')), 'traffic.har');
    const shadow = await startProxy({ record: har, maxFileBytes: 4000 });
    try {
      for (let i = 0; i < 10; i++)
        await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001` });
      await shadow.settled();
    } finally {
      await shadow.close();
    }
    const kept = JSON.parse(fs.readFileSync(har, 'utf8')).log.entries.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept + shadow.report.summary().overBudget.recording!).toBe(10);
    expect(fs.statSync(har).size).toBeLessThanOrEqual(4000 + 10);
  });
});
