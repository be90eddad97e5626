/** The real app from test/support/app.ts listening on 127.0.0.1 and a free port, for real HTTP clients. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { whenReady } from '../../src/app';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/app';

export interface ListeningApp extends TestApp {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  port: number;
  stop(): Promise<void>;
}

export async function listenTestApp(options: TestAppOptions = {}): Promise<ListeningApp> {
  const testApp = await startTestApp(options);
  await whenReady(testApp.app);
  const server: Server = await new Promise((resolve, reject) => {
    const s = testApp.app.listen(0, '127.0.0.1');
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await testApp.close();
  };
  return { ...testApp, baseUrl: `http://127.0.0.1:${port}`, port, stop };
}
