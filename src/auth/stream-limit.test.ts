/**
 * Turns for snapshots (stream-limit.ts) handed to real requests of a real node HTTP server, whose
 * clients are raw sockets: a client that leaves while its answer waits for a turn leaves the queue at
 * once, so the next turn goes to a client still there.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ClientGone, StreamLimit } from './stream-limit';

type Admitted = Promise<() => void>;

describe('StreamLimit', () => {
  let server: http.Server;
  let port: number;
  const limit = new StreamLimit({ perAddress: 10, turns: 1, waitMs: 5000, trustProxy: false });
  /** Each request's admission, in the order the requests came. */
  const admissions: Admitted[] = [];
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // As when a password check outlasts the client: its answer asks for a turn once it has gone.
      const asked = req.url === '/after-close' ? new Promise((resolve) => res.once('close', resolve)) : undefined;
      const admitted = Promise.resolve(asked).then(() => limit.admit(req, res));
      admitted.catch(() => undefined);
      admissions.push(admitted);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends a request and resolves once the server has asked for its turn. */
  async function ask(path = '/list'): Promise<{ socket: net.Socket; admitted: Admitted }> {
    const before = admissions.length;
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    while (admissions.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    return { socket, admitted: admissions[before] };
  }

  it('drops a waiting answer whose client left, and gives the next turn to one still there', async () => {
    const first = await ask();
    const endFirst = await first.admitted;
    const leaving = await ask();
    const staying = await ask();
    leaving.socket.destroy();
    await expect(leaving.admitted).rejects.toBeInstanceOf(ClientGone);
    endFirst();
    const endStaying = await staying.admitted;
    endStaying();
    // The turn is free again: nobody who left holds it.
    const next = await ask();
    (await next.admitted)();
  });

  it('gives no turn to an answer whose client had gone before it asked', async () => {
    const late = await ask('/after-close');
    late.socket.destroy();
    await expect(late.admitted).rejects.toBeInstanceOf(ClientGone);
    // The one turn is still free.
    const next = await ask();
    (await next.admitted)();
  });
});
