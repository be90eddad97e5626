/**
 * HEADERS_TIMEOUT_MS holds to within a second (src/server.ts listen: node:http checks it only every
 * connectionsCheckingInterval, 30 s by default, so a slowloris client used to keep its connection
 * for up to 30 s longer than the setting). A client that trickles header lines and never ends them
 * is answered 408 and cut soon after the setting; a whole request is not affected.
 */
import net from 'node:net';
import { loadSettings } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { captureLog } from './ops-support';

describe('HEADERS_TIMEOUT_MS', () => {
  let running: RunningServer;
  let port: number;
  beforeAll(async () => {
    const settings = loadSettings({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '60000',
      SHUTDOWN_DRAIN_MS: '0',
    });
    running = await startServer(settings, { seedEmbedded: false, logDestination: captureLog().destination });
    port = Number(new URL(running.address).port);
  });
  afterAll(() => running.stop());

  it('cuts a client that trickles its headers within about a second of the setting, with 408', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n');
    let n = 0;
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: a\r\n`), 100);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    // The check runs every 500 ms: a generous bound for a contended machine, far below the 30 s of before.
    expect(elapsed).toBeLessThan(3000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('leaves a client that sends its headers in time alone', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.write('GET /health HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write('Host: localhost\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
  });
});
