/**
 * The real server in a process of its own (bin/serve running src/main.ts through launch-ts.js, no build needed), for
 * the tests of signals, shutdown and workers; and a raw HTTP/1.1 client that controls exactly when
 * each byte is sent, so a request can be held in flight.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LogLine } from './ops-support';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVE = path.join(ROOT, 'bin', 'serve');

export interface SpawnedServer {
  child: ChildProcess;
  lines: LogLine[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first log line that matches (waiting for it). */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** The port from the "listening" line. */
  port(): Promise<number>;
}

export function spawnServer(env: Record<string, string>): SpawnedServer {
  // A directory of its own, so no .env file of the working tree is read.
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'asmx-server-'));
  // Started as the start commands start it (bin/serve), on this node.
  const child = spawn(SERVE, [path.join(ROOT, 'test', 'ops', 'launch-ts.js'), 'src/main.ts'], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      NODE: process.execPath,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      SEED_DEMO_DATA: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let stderr = '';
  const waiters = new Set<() => void>();
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop()!;
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as LogLine);
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      fs.rmSync(cwd, { recursive: true, force: true });
      for (const wake of waiters) wake();
      resolve({ code, signal });
    });
  });
  const waitForLine = (match: (line: LogLine) => boolean, timeoutMs = 40_000) =>
    new Promise<LogLine>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found) return finish(() => resolve(found));
        if (child.exitCode !== null || child.signalCode !== null)
          finish(() => reject(new Error(`the server exited (${child.exitCode}): ${stderr}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no such log line within ${timeoutMs} ms; stderr: ${stderr}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    waitForLine,
    port: async () => Number(new URL(String((await waitForLine((l) => typeof l.address === 'string')).address)).port),
  };
}

/** spawnServer for the tests of a describe block: a server still running after its test is killed. */
export function spawnPerTest(): (env: Record<string, string>) => SpawnedServer {
  const spawned: SpawnedServer[] = [];
  afterEach(() => {
    for (const server of spawned.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });
  return (env) => {
    const server = spawnServer(env);
    spawned.push(server);
    return server;
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One keep-alive connection driven byte by byte. */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.wake?.();
        resolve();
      }),
    );
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  get isClosed(): boolean {
    return this.socket.destroyed || this.socket.readableEnded;
  }

  /** The next whole response (with a Content-Length, or chunked). */
  async response(timeoutMs = 20_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.parse();
      if (parsed) return parsed;
      if (this.socket.destroyed || Date.now() > deadline)
        throw new Error(`no whole response; received: ${this.buffer.toString('utf8')}`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  }

  private parse(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...headerLines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines)
      headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    if (headers['transfer-encoding'] === 'chunked')
      return this.parseChunked(end + 4, Number(statusLine.split(' ')[1]), headers);
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  /** A chunked body (no Content-Length): the chunks up to the last, empty one (no trailers). */
  private parseChunked(start: number, status: number, headers: Record<string, string>): RawResponse | undefined {
    const chunks: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = this.buffer.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(this.buffer.subarray(at, lineEnd).toString('latin1'), 16);
      if (this.buffer.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) {
        this.buffer = this.buffer.subarray(lineEnd + 4);
        return { status, headers, body: Buffer.concat(chunks).toString('utf8') };
      }
      chunks.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/**
 * Which process answers GET /health on the port now (/health names no process): the pid of the
 * server's log line for that request, found by its X-Request-Id; undefined when nothing listens there,
 * -1 when something else answered (another test's server may have been given the freed port). The
 * server must log at debug, the level of the probes' lines.
 */
export function healthPid(server: SpawnedServer, port: number): Promise<number | undefined> {
  const id = `probe-${randomUUID()}`;
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/health', agent: false, timeout: 5000, headers: { 'X-Request-Id': id } },
      (res) => {
        res.resume();
        res.on('end', () => {
          server
            .waitForLine((line) => line.reqId === id, 2000)
            .then(
              (line) => resolve(typeof line.pid === 'number' ? line.pid : -1),
              () => resolve(-1),
            );
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}
