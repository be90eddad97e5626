/**
 * The drain period of the graceful shutdown (SHUTDOWN_DRAIN_MS, src/server.ts stop): after SIGTERM
 * the server says not-ready at once but keeps accepting and answering, so no request whose
 * connection was made is lost, not even those the kernel queued while the event loop was busy
 * (they used to be reset when the listener closed). The server process is made busy the hardest
 * way, SIGSTOP: for that time nothing is accepted, the kernel completes the connections and queues
 * them, and SIGTERM arrives in the middle of them.
 */
import http from 'node:http';
import { SYNC } from './ops-support';
import { spawnServer, type SpawnedServer } from './spawned-server';

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

function get(port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode, body }));
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      })
      .on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the drain period of a graceful shutdown', () => {
  let server: SpawnedServer | undefined;
  afterEach(() => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGCONT');
      server.child.kill('SIGKILL');
    }
  });

  it('answers every request sent steadily across a SIGTERM that came while the server was busy, then exits 0', async () => {
    server = spawnServer({ DATABASE_URL: 'sqlite::memory:', SHUTDOWN_DRAIN_MS: '2500', SHUTDOWN_TIMEOUT_MS: '10000' });
    const running = server;
    const port = await running.port();
    const pid = running.child.pid!;
    const sent: { at: string; outcome: Promise<Outcome> }[] = [];
    let phase = 'before';
    let sending = true;
    const sender = (async () => {
      while (sending) {
        sent.push({ at: phase, outcome: get(port, `${SYNC}/HelloWorld`) });
        await sleep(20);
      }
    })();

    await sleep(300);
    process.kill(pid, 'SIGSTOP');
    phase = 'busy';
    await sleep(400);
    process.kill(pid, 'SIGTERM');
    await sleep(300);
    phase = 'after the signal';
    process.kill(pid, 'SIGCONT');
    await running.waitForLine((l) => l.msg === 'stopping');
    const ready = await get(port, '/ready');
    await sleep(1000);
    sending = false;
    await sender;

    const outcomes = await Promise.all(sent.map(async ({ at, outcome }) => ({ at, ...(await outcome) })));
    expect(outcomes.filter((o) => o.error !== undefined || o.status !== 200)).toEqual([]);
    for (const outcome of outcomes) expect(outcome.body).toContain('>Hello World</string>');
    // The case is exercised: many connections were queued while the process was stopped.
    expect(outcomes.filter((o) => o.at === 'busy').length).toBeGreaterThanOrEqual(10);
    expect(outcomes.filter((o) => o.at === 'after the signal').length).toBeGreaterThanOrEqual(10);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body ?? '{}')).toEqual({ status: 'unavailable', reason: 'the server is shutting down' });

    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect((await get(port, '/health')).error).toBe('ECONNREFUSED');
    expect(running.lines.filter((l) => l.msg === 'request completed' && l.path === `${SYNC}/HelloWorld`)).toHaveLength(
      outcomes.length,
    );
  }, 60_000);
});
