/**
 * Graceful shutdown of the real server process (src/server.ts stop, src/process/signals.ts): on SIGTERM
 * it stops accepting connections, answers every request already in flight in full (each request
 * here is held open by sending its body in two halves, the second only after the signal), closes idle
 * keep-alive connections, and exits 0; when SHUTDOWN_TIMEOUT_MS runs out first, it cuts and exits 1.
 * These run without a drain period (SHUTDOWN_DRAIN_MS=0); drain.test.ts covers it.
 */
import { loadSettings } from '../../src/config';
import { startServer } from '../../src/server';
import { captureLog, MAIN, SOAP11, SOAP12, soapEnvelope, SYNC } from './ops-support';
import { healthPid, RawConnection, spawnPerTest } from './spawned-server';

interface HeldRequest {
  head: string;
  body: Buffer;
  expectStatus: number;
  expectBody: string;
}

function held(
  method: string,
  path: string,
  contentType: string,
  body: string,
  expectStatus: number,
  expectBody: string,
): HeldRequest {
  const bytes = Buffer.from(body, 'utf8');
  return {
    head: `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
    body: bytes,
    expectStatus,
    expectBody,
  };
}

const REQUESTS: HeldRequest[] = [
  held(
    'POST',
    SYNC,
    SOAP11.type,
    soapEnvelope(SOAP11, 'HelloWorld'),
    200,
    '<HelloWorldResult>Hello World</HelloWorldResult>',
  ),
  held(
    'POST',
    SYNC,
    SOAP12.type,
    soapEnvelope(SOAP12, 'HelloWorld'),
    200,
    '<HelloWorldResult>Hello World</HelloWorldResult>',
  ),
  held('POST', `${SYNC}/HelloWorld`, 'application/x-www-form-urlencoded', 'a=1&b=2', 200, '>Hello World</string>'),
  held(
    'POST',
    `${MAIN}/FillAreaManagers`,
    'application/x-www-form-urlencoded',
    'username=nobody',
    200,
    '"Code":"NOT_FOUND"',
  ),
  held(
    'POST',
    MAIN,
    SOAP11.type,
    soapEnvelope(SOAP11, 'FillAreaManagers', '<username>nobody</username>'),
    500,
    '<faultcode>soap:Client</faultcode>',
  ),
];

/** Opens a connection, proves the server took it (one whole request), then starts a held request. */
async function startHeld(port: number, held: HeldRequest): Promise<RawConnection> {
  const connection = await RawConnection.open(port);
  connection.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
  expect((await connection.response()).status).toBe(200);
  connection.write(held.head);
  connection.write(held.body.subarray(0, Math.floor(held.body.length / 2)));
  return connection;
}

describe('graceful shutdown of the server process', () => {
  const spawn = spawnPerTest();

  it('answers every request in flight at SIGTERM in full, refuses new connections, and exits 0', async () => {
    const server = spawn({
      DATABASE_URL: 'sqlite::memory:',
      SHUTDOWN_TIMEOUT_MS: '20000',
      SHUTDOWN_DRAIN_MS: '0',
      LOG_LEVEL: 'debug',
    });
    const port = await server.port();
    expect(await healthPid(server, port)).toBe(server.child.pid);
    const inFlight = [...REQUESTS, ...REQUESTS];
    const connections = await Promise.all(inFlight.map((request) => startHeld(port, request)));
    const idle = await RawConnection.open(port);
    idle.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect((await idle.response()).status).toBe(200);

    server.child.kill('SIGTERM');
    await server.waitForLine((l) => l.msg === 'stopping');
    // The idle keep-alive connection is closed, new connections are refused, and the process waits.
    await idle.closed;
    expect(await healthPid(server, port)).not.toBe(server.child.pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.child.exitCode).toBeNull();

    connections.forEach((connection, i) =>
      connection.write(inFlight[i].body.subarray(Math.floor(inFlight[i].body.length / 2))),
    );
    const answers = await Promise.all(connections.map((connection) => connection.response()));
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(inFlight[i].expectStatus);
      expect(answer.body).toContain(inFlight[i].expectBody);
      expect(answer.headers.connection).toBe('close');
    });
    await Promise.all(connections.map((connection) => connection.closed));
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const requestLines = server.lines.filter((l) => l.msg === 'request completed' && l.method === 'POST');
    expect(requestLines).toHaveLength(inFlight.length);
    expect(server.lines.at(-1)).toMatchObject({ msg: 'stopped' });
  });

  it('cuts what is still open at SHUTDOWN_TIMEOUT_MS and exits 1', async () => {
    const server = spawn({ DATABASE_URL: 'sqlite::memory:', SHUTDOWN_TIMEOUT_MS: '300', SHUTDOWN_DRAIN_MS: '0' });
    const port = await server.port();
    const stuck = await startHeld(port, REQUESTS[0]);
    server.child.kill('SIGTERM');
    await stuck.closed;
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.lines.some((l) => l.level === 'warn' && /SHUTDOWN_TIMEOUT_MS/.test(l.msg))).toBe(true);
  });
});

describe('readiness during shutdown', () => {
  it('answers 503 to a request that arrives on an open connection once stop() has begun', async () => {
    const settings = loadSettings({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      SHUTDOWN_TIMEOUT_MS: '10000',
      SHUTDOWN_DRAIN_MS: '0',
    });
    const running = await startServer(settings, { seedEmbedded: false, logDestination: captureLog().destination });
    const port = Number(new URL(running.address).port);
    const probe = await RawConnection.open(port);
    probe.write('GET /ready HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect((await probe.response()).status).toBe(200);
    // Begun but not complete when the server stops: the connection is busy, so it stays open.
    probe.write('GET /ready HTTP/1.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = running.stop();
    probe.write('Host: localhost\r\n\r\n');
    const answer = await probe.response();
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ status: 'unavailable', reason: 'the server is shutting down' });
    expect(answer.headers.connection).toBe('close');
    expect(await stopped).toEqual({ forced: false });
  });
});
