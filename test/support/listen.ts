/**
 * A request handler listening on 127.0.0.1 and a free port, for real HTTP clients (the contract
 * checker, the interop clients, raw requests); and the real app from app.ts listening the same way.
 */
import http, { type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp, type TestAppOptions } from './app';

export interface Listening {
  server: Server;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  port: number;
  /** Closes the server and any connection a client left open. */
  stop(): Promise<void>;
}

export async function listen(handler: RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { server, baseUrl: `http://127.0.0.1:${port}`, port, stop };
}

export interface ListeningApp extends TestApp {
  /** The HTTP server the app listens with: its 'request' events are every request it got. */
  server: Server;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** Closes the server, then the app's database. */
  stop(): Promise<void>;
}

export async function listenTestApp(options: TestAppOptions = {}): Promise<ListeningApp> {
  const testApp = await startTestApp(options);
  await testApp.app.ready;
  const listening = await listen(testApp.app);
  const stop = async () => {
    await listening.stop();
    await testApp.close();
  };
  return { ...testApp, server: listening.server, baseUrl: listening.baseUrl, stop };
}
