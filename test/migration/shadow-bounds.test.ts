/**
 * The shadow proxy in front of production stays bounded whatever clients send (docs/migration.md):
 * made-up operation names add no report rows, the files that hold requests and answers are its
 * owner's alone and capped in size, its own paths answer only the local machine, and a client that
 * says nothing holds nothing.
 */
import fs from 'node:fs';
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
