/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary directory, its own port), for the
 * tests that stop, freeze or start a database: the shared one is never touched. The cluster runs as
 * the postgres user (initdb refuses root); `freeze` SIGSTOPs the postmaster and every backend, as a
 * hung server or a network partition looks to a client, and `thaw` SIGCONTs them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why a private cluster cannot be made here, or undefined when it can. */
export function privatePostgresMissing(): string | undefined {
  if (!fs.existsSync(path.join(BIN, 'initdb'))) return `no initdb in ${BIN} (set PG_BIN)`;
  if (process.getuid?.() !== 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      return 'no postgres user';
    }
  }
  return undefined;
}

export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** Made (initdb) but not started. */
  static async create(): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asmx-pg-'));
    fs.chmodSync(dir, 0o777);
    const cluster = new PrivatePostgres(dir, await freePort());
    cluster.run('initdb', ['-D', cluster.data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    return cluster;
  }

  get data(): string {
    return path.join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
    this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', path.join(this.dir, 'log'), '-w', '-t', '60', 'start']);
  }

  stop(): void {
    this.thaw();
    try {
      this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Not running.
    }
  }

  /** SIGSTOP to the postmaster and each of its children: connections stay open and nothing answers. */
  freeze(): void {
    for (const pid of this.pids()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.pids()) process.kill(pid, 'SIGCONT');
  }

  remove(): void {
    this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private pids(): number[] {
    const pidFile = path.join(this.data, 'postmaster.pid');
    if (!fs.existsSync(pidFile)) return [];
    const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let children = '';
    try {
      children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' });
    } catch {
      // ps exits 1 when there is no child.
    }
    return [postmaster, ...children.split(/\s+/).filter(Boolean).map(Number)];
  }

  private run(program: string, args: string[]): void {
    const command = path.join(BIN, program);
    if (process.getuid?.() === 0)
      execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe', cwd: this.dir });
    else execFileSync(command, args, { stdio: 'pipe', cwd: this.dir });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
