/**
 * npm run build && node dist/scripts/bench-import.js [--dir DIR] [--scale N] [--postgres URL] [--engines sqlite,postgres]
 *
 * Measures the CSV import (docs/import.md) beside the database's own bulk load of the same rows, per
 * engine, in one run. DIR (default ./data/bench-<scale>-csv) holds the files `npm run export` writes
 * from the seeded demo data:
 *
 *   DATABASE_URL=sqlite:./data/bench-10.db node dist/scripts/seed.js --scale 10
 *   DATABASE_URL=sqlite:./data/bench-10.db node dist/scripts/export.js ./data/bench-10-csv
 *
 * For each engine, into a new empty database: the import (`node dist/scripts/import.js DIR --quiet`,
 * as `npm run import` starts it), then the same files again (every row an update), each with its rows/s
 * and the import process's peak resident memory (VmHWM, read from /proc while it runs); then the bulk
 * load: PostgreSQL `COPY` of each file into a table of text columns without index or constraint,
 * SQLite one prepared insert per file's table, every row in one transaction. On PostgreSQL, when
 * pg_dump and pg_restore are on PATH, also the imported database restored from its own dump
 * (`pg_restore` of `pg_dump -Fc`, one job): the finished database, summary data and indexes included,
 * moved by the database's own tools with nothing checked or derived. PostgreSQL (--postgres, default
 * TEST_DATABASE_URL) gets databases of its own, dropped at the end.
 *
 * Linux only (it reads /proc/<pid>). Speed goals are judged on its output, never in the test suite.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { findImportFiles, type ImportFile } from '../src/import/import-files';
import { flagValue, procStatusMb } from './bench-server';

type EngineKind = 'sqlite' | 'postgres';

interface Options {
  dir: string;
  postgres: string | undefined;
  engines: EngineKind[];
}

interface Timed {
  rows: number;
  seconds: number;
  peakMb?: number;
}

function parseOptions(argv: string[]): Options {
  const scale = flagValue(argv, '--scale') ?? '10';
  const engines = (flagValue(argv, '--engines') ?? 'sqlite,postgres').split(',') as EngineKind[];
  return {
    dir: flagValue(argv, '--dir') ?? `./data/bench-${scale}-csv`,
    postgres: flagValue(argv, '--postgres') ?? process.env.TEST_DATABASE_URL,
    engines,
  };
}

/** One run of the import command into `database`; its rows from the summary line, its peak memory from /proc. */
async function runImport(dir: string, database: string, expect: 'inserted' | 'updated'): Promise<Timed> {
  const script = path.join(__dirname, 'import.js');
  const started = performance.now();
  // node's flag as package.json's import script gives it.
  const child = spawn(process.execPath, ['--max-semi-space-size=8', script, dir, '--quiet'], {
    env: { ...process.env, DATABASE_URL: database },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peakMb = 0;
  const poll = setInterval(() => {
    try {
      peakMb = Math.max(peakMb, procStatusMb(child.pid!, 'VmHWM'));
    } catch {
      // The process has just ended.
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  const seconds = (performance.now() - started) / 1000;
  const totals = output.match(/file\(s\): read (\d+), inserted (\d+), updated (\d+), rejected (\d+)/);
  if (code !== 0 || !totals) throw new Error(`the import exited with ${code}:\n${output.slice(-2000)}`);
  const [read, inserted, updated] = totals.slice(1, 4).map(Number);
  if ((expect === 'inserted' ? inserted : updated) !== read)
    throw new Error(`expected every row ${expect}: ${totals[0]}`);
  return { rows: read, seconds, peakMb };
}

/** The header's column names of a CSV file. */
async function headerOf(file: string): Promise<string[]> {
  for await (const record of fs.createReadStream(file).pipe(parse({ bom: true, to_line: 1 })) as AsyncIterable<
    string[]
  >)
    return record.map((c) => c.trim().toLowerCase());
  return [];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** PostgreSQL's own bulk load: COPY of every file into a table of text columns, no index, no constraint. */
async function postgresBulk(url: string, files: ImportFile[]): Promise<Timed> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    let rows = 0;
    const started = performance.now();
    for (const file of files) {
      const table = `bulk_${file.spec.table}`;
      const columns = await headerOf(file.path);
      await client.query(`create table ${table} (${columns.map((c) => `${quote(c)} text`).join(', ')})`);
      const copy = client.query(copyFrom(`copy ${table} from stdin with (format csv, header true)`));
      await pipeline(fs.createReadStream(file.path), copy);
      rows += Number(copy.rowCount);
    }
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** SQLite's own bulk load: per file, one prepared insert run for each record in one transaction. */
async function sqliteBulk(file: string, files: ImportFile[]): Promise<Timed> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  try {
    let rows = 0;
    const started = performance.now();
    for (const f of files) {
      const columns = await headerOf(f.path);
      db.exec(`create table ${quote(f.spec.table)} (${columns.map((c) => `${quote(c)} text`).join(', ')})`);
      const insert = db.prepare(`insert into ${quote(f.spec.table)} values (${columns.map(() => '?').join(', ')})`);
      db.exec('begin');
      for await (const record of fs.createReadStream(f.path).pipe(parse({ bom: true, from_line: 2 })) as AsyncIterable<
        string[]
      >) {
        insert.run(record);
        rows++;
      }
      db.exec('commit');
    }
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
  }
}

/** The database at `from` dumped by pg_dump and restored into `to` by pg_restore; the restore timed. */
async function postgresRestore(from: string, to: string, rows: number): Promise<Timed> {
  const dump = path.join(os.tmpdir(), `bench-import-${process.pid}.dump`);
  try {
    await run('pg_dump', ['--format=custom', '--compress=0', `--file=${dump}`, from]);
    const started = performance.now();
    await run('pg_restore', ['--no-owner', `--dbname=${to}`, dump]);
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    fs.rmSync(dump, { force: true });
  }
}

function run(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`)))),
  );
}

function removeSqlite(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}

const rate = (t: Timed) => t.rows / t.seconds;
const num = (n: number) => Math.round(n).toLocaleString('en-US');

function line(engine: string, what: string, t: Timed, bulk: Timed): string {
  const memory = t.peakMb === undefined ? '' : `, peak RSS ${t.peakMb.toFixed(0)} MB`;
  return `${engine} ${what}: ${num(t.rows)} rows in ${t.seconds.toFixed(1)} s, ${num(rate(t))} rows/s${memory}; bulk load ${num(rate(bulk))} rows/s; ratio ${(rate(t) / rate(bulk)).toFixed(3)}x\n`;
}

async function benchEngine(engine: EngineKind, options: Options, files: ImportFile[]): Promise<void> {
  if (engine === 'sqlite') {
    const importDb = path.resolve(`./data/bench-import-${process.pid}.db`);
    const bulkDb = path.resolve(`./data/bench-bulk-${process.pid}.db`);
    try {
      const first = await runImport(options.dir, `sqlite:${importDb}`, 'inserted');
      const again = await runImport(options.dir, `sqlite:${importDb}`, 'updated');
      const bulk = await sqliteBulk(bulkDb, files);
      process.stdout.write(
        line('sqlite', 'import into an empty database', first, bulk) +
          line('sqlite', 're-import (all updates)', again, bulk),
      );
    } finally {
      removeSqlite(importDb);
      removeSqlite(bulkDb);
    }
    return;
  }
  if (options.postgres === undefined) {
    process.stdout.write('postgres: [left out] no --postgres URL and no TEST_DATABASE_URL\n');
    return;
  }
  const admin = new Client({ connectionString: options.postgres });
  await admin.connect();
  const names = [`bench_import_${process.pid}`, `bench_bulk_${process.pid}`, `bench_restore_${process.pid}`];
  const urlOf = (name: string) => Object.assign(new URL(options.postgres!), { pathname: `/${name}` }).toString();
  try {
    for (const name of names) await admin.query(`create database ${name}`);
    const first = await runImport(options.dir, urlOf(names[0]), 'inserted');
    const again = await runImport(options.dir, urlOf(names[0]), 'updated');
    const bulk = await postgresBulk(urlOf(names[1]), files);
    process.stdout.write(
      line('postgres', 'import into an empty database', first, bulk) +
        line('postgres', 're-import (all updates)', again, bulk),
    );
    if (['pg_dump', 'pg_restore'].every((command) => spawnSync(command, ['--version']).status === 0)) {
      // pg_dump refuses a server of a newer major version than its own: the line is left out then.
      const restore = await postgresRestore(urlOf(names[0]), urlOf(names[2]), first.rows).catch((err: Error) => err);
      process.stdout.write(
        restore instanceof Error
          ? `postgres pg_restore: [left out] ${restore.message}\n`
          : line('postgres', 'pg_restore of the imported database', restore, bulk).replace(
              /\n$/,
              `; the first import took ${(first.seconds / restore.seconds).toFixed(2)}x its time\n`,
            ),
      );
    } else {
      process.stdout.write('postgres pg_restore: [left out] pg_dump or pg_restore not on PATH\n');
    }
  } finally {
    for (const name of names) await admin.query(`drop database if exists ${name}`);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (!fs.existsSync(options.dir)) {
    process.stderr.write(
      `${options.dir} does not exist: write it with seed and export (see the head of scripts/bench-import.ts)\n`,
    );
    process.exitCode = 2;
    return;
  }
  const { files } = findImportFiles(options.dir);
  for (const engine of options.engines) await benchEngine(engine, options, files);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
