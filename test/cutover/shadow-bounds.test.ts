/**
 * The shadow proxy in front of production stays bounded whatever clients send (docs/cutover.md):
 * made-up operation names add no report rows, the files that hold requests and answers are its
 * owner's alone and capped in size, its own paths answer only the local machine, and a client that
 * says nothing holds nothing.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Shadow, ShadowOptions } from '../../src/cutover/shadow';
import { loadSettings } from '../../src/config';
import { UNDECLARED } from '../../src/cutover/traffic';
import { listen } from '../support/listen';
import { differingPairForFile, rawRequest, soapCall } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';

const servers = differingPairForFile();
const startProxy = (overrides: Partial<ShadowOptions> = {}): Promise<Shadow> => servers.proxy(overrides);

describe('operations the contract does not declare', () => {
  it('are counted in one row per service and binding, however many names clients make up', async () => {
    const shadow = await startProxy();
    try {
      const made = 1000;
      for (let i = 0; i < made; i++) {
        const name = `MadeUp${i}`;
        const request = [
          { method: 'GET', path: `${MAIN}/${name}?x=1` },
          {
            method: 'POST',
            path: `${MAIN}/${name}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'x=1',
          },
          soapCall('1.1', MAIN, 'http://tempuri.org/', name, {}),
          { method: 'GET', path: `/API/Service${i}.asmx/${name}` },
        ][i % 4];
        await rawRequest(shadow.port, request);
      }
      await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` });
      await shadow.settled();
      const rows = shadow.report.summary().operations;
      const undeclared = rows.filter((row) => row.operation === UNDECLARED);
      expect(undeclared.map((row) => `${row.service} ${row.binding}`).sort()).toEqual([
        'MobileAppWebService get',
        'MobileAppWebService post',
        'MobileAppWebService soap11',
      ]);
      // A service the contract does not have is another path: the one `other` document row.
      const other = rows.filter((row) => row.operation === 'other');
      expect(other.map((row) => `${row.service} ${row.binding}`)).toEqual([' document']);
      expect(
        [...undeclared, ...other].reduce(
          (sum, row) => sum + row.compared + row.notMirrored + row.candidateErrors + row.dropped,
          0,
        ),
      ).toBe(made);
      expect(
        rows
          .filter((row) => row.operation !== UNDECLARED && row.operation !== 'other')
          .map((row) => `${row.operation} ${row.binding}`),
      ).toEqual(['FillAreaManagers get']);
      shadow.report.write();
      expect(fs.statSync(path.join(shadow.report.dir, 'summary.json')).size).toBeLessThan(10_000);
      expect(fs.statSync(path.join(shadow.report.dir, 'summary.html')).size).toBeLessThan(50_000);
      const metrics = (await rawRequest(shadow.port, { method: 'GET', path: '/__shadow/metrics' })).body.toString();
      expect(metrics.split('\n').length).toBeLessThan(100);
    } finally {
      await shadow.close();
    }
  }, 60_000);
});

/** A read whose answers differ between the two servers: one line of differences.jsonl each. */
const differing = { method: 'GET', path: `${MAIN}/FillAreaManagers?username=admin` };

function modeOf(file: string): string {
  return (fs.statSync(file).mode & 0o777).toString(8);
}

describe('the files that hold requests and answers', () => {
  it('are readable by their owner only, also when they were there before', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'shadow-modes-'));
    for (const name of ['differences.jsonl', 'summary.json', 'summary.html'])
      fs.writeFileSync(path.join(out, name), 'old', { mode: 0o644 });
    const shadow = await startProxy({ out });
    try {
      await rawRequest(shadow.port, differing);
      await shadow.settled();
    } finally {
      await shadow.close();
    }
    expect(fs.readFileSync(path.join(out, 'differences.jsonl'), 'utf8')).toContain('Anita Southern');
    for (const name of ['differences.jsonl', 'summary.json', 'summary.html'])
      expect([name, modeOf(path.join(out, name))]).toEqual([name, '600']);
    const fresh = path.join(out, 'new', 'report');
    const again = await startProxy({ out: fresh });
    await again.close();
    expect(modeOf(fresh)).toBe('700');
  });

  it('stop growing at their size budget, what is left out counted in the summary', async () => {
    const shadow = await startProxy({ maxFileBytes: 2000 });
    try {
      for (let i = 0; i < 10; i++) await rawRequest(shadow.port, differing);
      await shadow.settled();
      const file = path.join(shadow.report.dir, 'differences.jsonl');
      const written = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '').length;
      expect(fs.statSync(file).size).toBeLessThanOrEqual(2000);
      expect(written).toBeGreaterThan(0);
      const { overBudget } = shadow.report.summary();
      expect(written + overBudget.differences).toBe(10);
      shadow.report.write();
      expect(JSON.parse(fs.readFileSync(path.join(shadow.report.dir, 'summary.json'), 'utf8')).overBudget).toEqual({
        differences: overBudget.differences,
      });
      expect(fs.readFileSync(path.join(shadow.report.dir, 'summary.html'), 'utf8')).toContain(
        `${overBudget.differences} differing exchanges were left out of differences.jsonl`,
      );
    } finally {
      await shadow.close();
    }
  });
});

describe("the proxy's own paths", () => {
  /** An address of this machine that is not loopback, if it has one. */
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

  (external === undefined ? it.skip : it)('answer the local machine only, unless told to answer anyone', async () => {
    for (const [ownPathsPublic, fromOutside] of [
      [false, 403],
      [true, 200],
    ] as const) {
      const shadow = await startProxy({ host: '0.0.0.0', ownPathsPublic });
      try {
        for (const own of ['/__shadow/metrics', '/__shadow/summary']) {
          expect((await rawRequest(shadow.port, { method: 'GET', path: own })).status).toBe(200);
          const outside = await rawRequest(shadow.port, { method: 'GET', path: own }, external);
          expect(outside.status).toBe(fromOutside);
          if (fromOutside === 403) expect(outside.body.toString()).not.toContain('shadow_exchanges_total');
        }
        // Other paths are still forwarded, whoever asks.
        expect((await rawRequest(shadow.port, differing, external)).status).toBe(200);
      } finally {
        await shadow.close();
      }
    }
  });
});

describe('a client of the proxy that holds its connection', () => {
  const short = { ...loadSettings({}), requestTimeoutMs: 1000, headersTimeoutMs: 1000, sendTimeoutMs: 1000 };

  it('is closed after the headers timeout when it sends nothing, or stops within its request head', async () => {
    const shadow = await startProxy({ connections: short });
    try {
      const started = Date.now();
      const closed = ['', 'GET /API/MobileAppWebService.asmx/FillAreaManagers HTTP/1.1\r\nHost: x\r\n'].map((sent) => {
        const socket = net.connect(shadow.port, '127.0.0.1');
        socket.on('error', () => undefined);
        // Read what the proxy says before closing (a 408): a socket left paused never emits 'close'.
        socket.resume();
        if (sent !== '') socket.write(sent);
        return new Promise((resolve) => socket.once('close', () => resolve(Date.now() - started)));
      });
      for (const after of await Promise.all(closed)) {
        expect(after).toBeGreaterThanOrEqual(900);
        expect(after).toBeLessThan(5000);
      }
    } finally {
      await shadow.close();
    }
  });

  it('is closed when it takes none of its answer, after the send timeout, and the primary is let go', async () => {
    let primaryClosed = false;
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const big = await listen((_req, res) => {
      res.on('close', () => (primaryClosed = true));
      res.writeHead(200, { 'content-type': 'text/plain' });
      const more = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const shadow = await startProxy({ primary: big.baseUrl, connections: short });
    try {
      const socket = net.connect(shadow.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
      // Reads the answer's first bytes, then nothing more.
      await new Promise((resolve) => socket.once('data', resolve));
      socket.pause();
      const started = Date.now();
      while (shadow.connections.sendTimeouts === 0 && Date.now() - started < 10_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(shadow.connections.sendTimeouts).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(primaryClosed).toBe(true);
      socket.destroy();
    } finally {
      await shadow.close();
      await big.stop();
    }
  }, 20_000);
});
