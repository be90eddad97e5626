/**
 * The shadow proxy in front of production stays bounded whatever clients send (docs/migration.md):
 * made-up operation names add no report rows, the files that hold requests and answers are its
 * owner's alone and capped in size, its own paths answer only the local machine, and a client that
 * says nothing holds nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Shadow, ShadowOptions } from '../../src/migration/shadow';
import { UNDECLARED } from '../../src/migration/report';
import type { ListeningApp } from '../support/listen';
import { differingPair, proxyBetween, rawRequest, soapCall } from './shadow-support';

const MAIN = '/API/MobileAppWebService.asmx';

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

describe('operations the contract does not declare', () => {
  it('are counted in one row per service and binding, however many names clients make up', async () => {
    const shadow = await startProxy();
    try {
      const made = 1000;
      for (let i = 0; i < made; i++) {
        const name = `MadeUp${i}`;
        const request = [
          { method: 'GET', path: `${MAIN}/${name}?x=1` },
          { method: 'POST', path: `${MAIN}/${name}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x=1' },
          soapCall('1.1', MAIN, 'http://tempuri.org/', name, {}),
          { method: 'GET', path: `/API/Service${i}.asmx/${name}` },
        ][i % 4];
        await rawRequest(shadow.port, request);
      }
      // A declared operation spelt in another case is that operation's row.
      await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/fillareamanagers?username=admin` });
      await shadow.settled();
      const rows = shadow.report.summary().operations;
      const undeclared = rows.filter((row) => row.operation === UNDECLARED);
      expect(undeclared.map((row) => `${row.service} ${row.binding}`).sort()).toEqual([`${UNDECLARED} get`, 'MobileAppWebService get', 'MobileAppWebService post', 'MobileAppWebService soap11']);
      expect(undeclared.reduce((sum, row) => sum + row.compared + row.notMirrored + row.candidateErrors + row.dropped, 0)).toBe(made);
      expect(rows.filter((row) => row.operation !== UNDECLARED).map((row) => `${row.operation} ${row.binding}`)).toEqual(['FillAreaManagers get']);
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
    for (const name of ['differences.jsonl', 'summary.json', 'summary.html']) fs.writeFileSync(path.join(out, name), 'old', { mode: 0o644 });
    const shadow = await startProxy({ out });
    try {
      await rawRequest(shadow.port, differing);
      await shadow.settled();
    } finally {
      await shadow.close();
    }
    expect(fs.readFileSync(path.join(out, 'differences.jsonl'), 'utf8')).toContain('Anita Southern');
    for (const name of ['differences.jsonl', 'summary.json', 'summary.html']) expect([name, modeOf(path.join(out, name))]).toEqual([name, '600']);
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
      const written = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').length;
      expect(fs.statSync(file).size).toBeLessThanOrEqual(2000);
      expect(written).toBeGreaterThan(0);
      const { overBudget } = shadow.report.summary();
      expect(written + overBudget.differences).toBe(10);
      shadow.report.write();
      expect(JSON.parse(fs.readFileSync(path.join(shadow.report.dir, 'summary.json'), 'utf8')).overBudget).toEqual({ differences: overBudget.differences });
      expect(fs.readFileSync(path.join(shadow.report.dir, 'summary.html'), 'utf8')).toContain(`${overBudget.differences} differing exchanges were left out of differences.jsonl`);
    } finally {
      await shadow.close();
    }
  });
});
