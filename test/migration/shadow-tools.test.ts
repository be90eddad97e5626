/**
 * What users of traffic tools ask of the shadow proxy (docs/migration.md): a fraction of reads mirrored
 * (--sample), and the client exchanges recorded as HAR (--record) for a later replay.
 */
import type { Shadow, ShadowOptions } from '../../src/migration/shadow';
import type { OperationSummary } from '../../src/migration/report';
import { differingPairForFile, rawRequest } from './shadow-support';

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
      for (let i = 0; i < 40; i++) expect((await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001` })).status).toBe(200);
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
    for (const [sample, compared] of [[0, 0], [1, 8]] as const) {
      const shadow = await startProxy({ sample });
      try {
        for (let i = 0; i < 8; i++) await rawRequest(shadow.port, { method: 'GET', path: `${MAIN}/FillProfitCenterForCustomer?CustomerCode=C001` });
        await shadow.settled();
        expect(row(shadow, 'FillProfitCenterForCustomer', 'get')).toMatchObject({ compared, notSampled: 8 - compared });
      } finally {
        await shadow.close();
      }
    }
  });
});
