/**
 * The running server (src/server.ts): migrates, passes the contract check, listens on HOST:PORT and
 * stops cleanly, letting the database go.
 */
import { loadSettings } from '../../src/config';
import { startServer } from '../../src/server';

describe('server start and stop', () => {
  it('listens, answers, and stops', async () => {
    const settings = loadSettings({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', BASE_PATH: '/M', SHUTDOWN_DRAIN_MS: '0' });
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

  it('refuses a port that is taken', async () => {
    const first = await startServer(loadSettings({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', SHUTDOWN_DRAIN_MS: '0' }), { seedEmbedded: false });
    const port = new URL(first.address).port;
    try {
      await expect(
        startServer(loadSettings({ PORT: port, HOST: '127.0.0.1', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }), { seedEmbedded: false }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });
});
