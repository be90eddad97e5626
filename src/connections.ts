/**
 * What a listener does with connections rather than requests (docs/operations.md, "Slow clients"), the
 * server's and the shadow proxy's alike: node:http's timeouts, a ceiling on open connections, past
 * which a new one is answered 503 and closed rather than dropped, and the send timeout, which closes a
 * connection whose client takes none of its answer's bytes for SEND_TIMEOUT_MS.
 */
import http, { type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Settings } from './config';
import { FAULT_TEXT } from './protocol-texts';
import { sendWhole, setAnswerHeaders } from './send';

/** The settings a listener's connections are held to: the server's, and the shadow proxy's for its clients. */
export type ConnectionSettings = Pick<
  Settings,
  'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs' | 'sendTimeoutMs' | 'maxConnections'
>;

/** How often node:http checks headersTimeout and requestTimeout: its default lets a slow client stay well past them. */
const CONNECTIONS_CHECK_MS = 500;

/** A server with the settings' timeouts; with `guard`, its ceiling on connections and send timeout too. */
export function httpServer(listener: RequestListener, settings: ConnectionSettings, guard?: ConnectionGuard): Server {
  const server = http.createServer(
    {
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    guard ? guard.admit(listener) : listener,
  );
  guard?.watch(server);
  return server;
}

/** What a client refused at the ceiling is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 1;

export class ConnectionGuard {
  open = 0;
  /** Requests answered 503 because their connection came past the ceiling. */
  refused = 0;
  /** Connections closed because their client took none of the answer's bytes for SEND_TIMEOUT_MS. */
  sendTimeouts = 0;
  private readonly overCeiling = new WeakSet<Socket>();
  /** The latest answer of each connection: pipelined answers finish in order, so it is the last to finish. */
  private readonly latest = new WeakMap<Socket, ServerResponse>();

  constructor(private readonly limits: { maxConnections: number; sendTimeoutMs: number }) {}

  /** Counts `server`'s connections and watches them for the send timeout. */
  watch(server: Server): void {
    // node:http arms each connection's inactivity timer with it: it fires when neither side moved a byte.
    server.timeout = this.limits.sendTimeoutMs;
    server.on('connection', (socket: Socket) => {
      this.open++;
      socket.once('close', () => this.open--);
      if (this.open > this.limits.maxConnections) this.overCeiling.add(socket);
    });
    server.on('timeout', (socket: Socket) => this.timedOut(socket));
  }

  /** `listener`, with the requests of connections past the ceiling answered 503. */
  admit(listener: RequestListener): RequestListener {
    return (req, res) => {
      this.latest.set(req.socket, res);
      if (!this.overCeiling.has(req.socket)) return listener(req, res);
      this.refused++;
      setAnswerHeaders(res);
      res.setHeader('Retry-After', String(FULL_RETRY_AFTER_SECONDS));
      res.setHeader('Connection', 'close');
      sendWhole(res, 503, 'text/plain; charset=utf-8', `${FAULT_TEXT.serverBusy(FULL_RETRY_AFTER_SECONDS)}\r\n`);
    };
  }

  private timedOut(socket: Socket): void {
    if (socket.writableLength > 0) {
      // Bytes wait for the client and it took none of them all this time.
      this.sendTimeouts++;
      socket.destroy();
      return;
    }
    const answer = this.latest.get(socket);
    // Its answer is still being made: not the client's doing, the database's bounds apply.
    if (answer !== undefined && !answer.writableFinished && !answer.destroyed)
      socket.setTimeout(this.limits.sendTimeoutMs);
    // Idle between requests (KEEP_ALIVE_TIMEOUT_MS): what node:http does when nobody listens for 'timeout'.
    else socket.destroy();
  }
}
