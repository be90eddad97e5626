/**
 * METRICS_PORT (src/app.ts; docs/operations.md, "Metrics"): /metrics on a listener of
 * its own at HOST:METRICS_PORT, 404 on the main port; every other path there is 404; its answers carry
 * nosniff; it closes with the server. Unset (the default), /metrics stays on the main port. Several
 * workers: test/ops/workers.test.ts.
 */
import { loadSettings } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';

function serverWith(env: Record<string, string>): Promise<RunningServer> {
  return startServer(
    loadSettings({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    }),
    { seedEmbedded: false },
  );
}

describe('METRICS_PORT', () => {
  it('serves /metrics only on its own listener, and closes it with the server', async () => {
    const running = await serverWith({ METRICS_PORT: '0' });
    const metricsAddress = running.metricsAddress!;
    try {
      expect(metricsAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(metricsAddress).not.toBe(running.address);
      expect(await (await fetch(`${running.address}/API/SyncCustomers.asmx/HelloWorld`)).text()).toContain(
        'Hello World',
      );

      const main = await fetch(`${running.address}/metrics`);
      expect([main.status, await main.text()]).toEqual([404, 'Not Found\r\n']);
      expect((await fetch(`${running.address}/health`)).status).toBe(200);

      const metrics = await fetch(`${metricsAddress}/Metrics?x=1`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await metrics.text()).toMatch(
        /^asmx_requests_total\{service="SyncCustomers",operation="HelloWorld",binding="httpget",outcome="success"\} 1$/m,
      );
      expect((await fetch(`${metricsAddress}/metrics`, { method: 'HEAD' })).status).toBe(200);

      for (const [path, method] of [
        ['/health', 'GET'],
        ['/API/SyncCustomers.asmx/HelloWorld', 'GET'],
        ['/metrics', 'POST'],
      ] as const) {
        const other = await fetch(`${metricsAddress}${path}`, { method });
        expect([other.status, other.headers.get('x-content-type-options'), await other.text()]).toEqual([
          404,
          'nosniff',
          'Not Found\r\n',
        ]);
      }
    } finally {
      await running.stop();
    }
    await expect(fetch(`${metricsAddress}/metrics`)).rejects.toThrow();
  });

  it('unset, /metrics stays on the main port and nothing else listens', async () => {
    const running = await serverWith({});
    try {
      expect(running.metricsAddress).toBeUndefined();
      const metrics = await fetch(`${running.address}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await running.stop();
    }
  });
});
