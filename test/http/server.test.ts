/**
 * The running server (src/server.ts): migrates, passes the contract check, listens on HOST:PORT and
 * stops cleanly, letting the database go.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { loadSettings } from '../../src/config';
import { startServer } from '../../src/server';

describe('server start and stop', () => {
  it('listens, answers, and stops', async () => {
    const settings = loadSettings({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      BASE_PATH: '/M',
      SHUTDOWN_DRAIN_MS: '0',
    });
    const running = await startServer(settings, { seedEmbedded: false });
    const res = await fetch(`${running.address}/M/API/SyncCustomers.asmx/HelloWorld`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('>Hello World</string>');
    const wsdl = await fetch(`${running.address}/M/API/MobileAppWebService.asmx?wsdl`);
    expect(await wsdl.text()).toContain(`location="${running.address}/M/API/MobileAppWebService.asmx"`);
    await running.stop();
    expect(running.server.listening).toBe(false);
    await expect(fetch(`${running.address}/M/API/SyncCustomers.asmx/HelloWorld`)).rejects.toThrow();
    await expect(running.engine.db.selectFrom('users').selectAll().execute()).rejects.toThrow();
  });

  it("answers the probes and the bindings on Node's own request and response, the routed requests on Express's", async () => {
    const running = await startServer(
      loadSettings({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
        SHUTDOWN_DRAIN_MS: '0',
      }),
      { seedEmbedded: false },
    );
    const seen = new Map<string, boolean>();
    running.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const asked = `${req.method} ${req.url}`;
      res.once('finish', () =>
        seen.set(
          asked,
          Object.getPrototypeOf(req) === IncomingMessage.prototype &&
            Object.getPrototypeOf(res) === ServerResponse.prototype,
        ),
      );
    });
    try {
      const health = await fetch(`${running.address}/Health?probe=1`);
      expect(health.status).toBe(200);
      expect(health.headers.get('cache-control')).toBe('no-store');
      expect(await health.json()).toEqual({ status: 'ok' });
      const head = await fetch(`${running.address}/health`, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([
        200,
        'application/json; charset=utf-8',
        '',
      ]);
      expect((await fetch(`${running.address}/ready`)).status).toBe(200);
      expect(await (await fetch(`${running.address}/metrics`)).text()).toContain('# TYPE');
      expect(await (await fetch(`${running.address}/API/SyncCustomers.asmx/HelloWorld`)).text()).toContain(
        '>Hello World</string>',
      );
      // Routed: a document, a path only like a probe's, a probe's path with another method.
      expect((await fetch(`${running.address}/API/SyncCustomers.asmx?wsdl`)).status).toBe(200);
      expect((await fetch(`${running.address}/health/`)).status).toBe(404);
      expect((await fetch(`${running.address}/health`, { method: 'POST' })).status).toBe(404);
      expect(Object.fromEntries(seen)).toEqual({
        'GET /Health?probe=1': true,
        'HEAD /health': true,
        'GET /ready': true,
        'GET /metrics': true,
        'GET /API/SyncCustomers.asmx/HelloWorld': true,
        'GET /API/SyncCustomers.asmx?wsdl': false,
        'GET /health/': false,
        'POST /health': false,
      });
    } finally {
      await running.stop();
    }
  });

  it('refuses a port that is taken', async () => {
    const first = await startServer(
      loadSettings({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'silent',
        SHUTDOWN_DRAIN_MS: '0',
      }),
      { seedEmbedded: false },
    );
    const port = new URL(first.address).port;
    try {
      await expect(
        startServer(
          loadSettings({ PORT: port, HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }),
          { seedEmbedded: false },
        ),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });
});
