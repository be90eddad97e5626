/**
 * One import: the files in load order, each in a transaction of its own, so a file loads whole (its
 * valid rows) or not at all (docs/import.md, "Transactions"). A dry run does all the same work inside
 * one transaction that is rolled back at the end, each file under a savepoint: every check a real run
 * makes, including the database's own, with nothing kept.
 */
import fs from 'node:fs';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { DateOrder } from '../config';
import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { loadFile } from './file-loader';
import type { ImportFile } from './import-files';
import { stageAsJson, stageByCopy, type StageRows } from './staging';
import { SummaryUpkeep } from './summary-upkeep';
import { catchUpFamiliesBehind } from '../summaries/upkeep';

/**
 * The import's PostgreSQL session: memory per sort or hash and for building an index; no parallel
 * workers and no JIT (importConnection says why).
 */
const SESSION_SETTINGS: Record<string, string> = {
  work_mem: '128MB',
  maintenance_work_mem: '256MB',
  max_parallel_workers_per_gather: '0',
  jit: 'off',
};

export interface ImportOptions {
  dryRun: boolean;
  dateOrder: DateOrder;
  batchRows?: number;
}

export interface RejectLine {
  file: string;
  line: number;
  column: string;
  reason: string;
}

export interface FileResult {
  file: string;
  table: string;
  /** loaded: its valid rows are stored; refused: its header was unusable; failed: the database refused it, rolled back. */
  status: 'loaded' | 'refused' | 'failed';
  read: number;
  inserted: number;
  updated: number;
  rejected: number;
  error?: string;
}

export interface ImportListener {
  reject(reject: RejectLine): void;
  fileDone(result: FileResult): void;
  /** Rows and bytes read so far of a file of `size` bytes, now and then while it loads. */
  progress?(file: string, rows: number, bytes: number, size: number): void;
}

export async function runImport(
  engine: Engine,
  files: ImportFile[],
  options: ImportOptions,
  listener: ImportListener,
): Promise<FileResult[]> {
  const connection = await importConnection(engine);
  const results: FileResult[] = [];
  try {
    const scope = options.dryRun
      ? await dryRunScope(connection.db, connection.stage)
      : fileTransactions(connection.db, connection.stage);
    const refreshes = await Refreshes.of(engine, scope, options.dryRun);
    const summaries = new SummaryUpkeep(files.map((f) => f.spec.table));
    let refreshFailure: Error | undefined;
    try {
      // An import stopped between the files of a family left its summaries behind: derived anew first.
      await scope.run(catchUpFamiliesBehind);
      for (const file of files) {
        summaries.loading(file.spec.table);
        const result = await importFile(scope, file, summaries, options, listener);
        await summaries.settle(refreshes.add);
        results.push(result);
        listener.fileDone(result);
      }
    } finally {
      await scope.finish();
      refreshFailure = await refreshes.finish();
    }
    // Thrown when the files went through; when they did not, their failure is the one reported.
    if (refreshFailure) throw refreshFailure;
  } finally {
    await connection.release();
  }
  return results;
}

/**
 * The summary refreshes of a run (summary-upkeep.ts), one after another, each in a transaction of its
 * own. On PostgreSQL they run on a connection of their own while the next files load: a refresh reads
 * only raw tables of committed files no later file writes, and the two share the machine's cores
 * instead of taking turns. On SQLite (one writer) and in a dry run each is done before the next file.
 */
class Refreshes {
  private queue = Promise.resolve();
  private failure: Error | undefined;

  private constructor(
    private readonly scope: Scope,
    private readonly beside?: { release(): Promise<void> },
  ) {}

  static async of(engine: Engine, scope: Scope, dryRun: boolean): Promise<Refreshes> {
    if (dryRun || engine.pool === undefined) return new Refreshes(scope);
    const connection = await importConnection(engine);
    return new Refreshes(fileTransactions(connection.db, connection.stage), connection);
  }

  readonly add = (fn: (trx: Transaction<Database>) => Promise<void>): Promise<void> => {
    this.queue = this.queue
      .then(() => this.scope.run(fn))
      .catch((err: Error) => {
        this.failure ??= err;
      });
    return this.beside ? Promise.resolve() : this.queue;
  };

  /** Waits for the refreshes added; returns the first that failed (its family stays noted as behind). */
  async finish(): Promise<Error | undefined> {
    await this.queue;
    await this.beside?.release();
    return this.failure;
  }
}

/**
 * Where the files load: on PostgreSQL one connection of the pool, held for the whole import, so that
 * COPY (which Kysely does not speak) runs on the connection of the file's transaction; on SQLite the
 * engine itself, whose transactions run on the writer thread.
 */
async function importConnection(
  engine: Engine,
): Promise<{ db: Kysely<Database>; stage: StageRows; release(): Promise<void> }> {
  if (engine.pool === undefined) return { db: engine.db, stage: stageAsJson, release: () => Promise.resolve() };
  const client = await engine.pool.connect();
  // Deriving the summary data groups and sorts every raw row, and setting indexes aside builds them
  // anew: with the defaults' few MB these spill to disk. Parallel workers each hashed the whole inner
  // side of a join again, and compiling with JIT cost more than it saved. This connection's work only.
  await client.query(
    Object.entries(SESSION_SETTINGS)
      .map(([name, value]) => `set ${name} = '${value}'`)
      .join('; '),
  );
  const single = {
    connect: () => Promise.resolve({ query: client.query.bind(client), release: () => undefined }),
    end: () => Promise.resolve(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: single }) });
  return {
    db,
    stage: stageByCopy(client),
    async release() {
      await db.destroy();
      await client
        .query(
          Object.keys(SESSION_SETTINGS)
            .map((name) => `reset ${name}`)
            .join('; '),
        )
        .catch(() => undefined);
      client.release();
    },
  };
}

async function importFile(
  scope: Scope,
  file: ImportFile,
  summaries: SummaryUpkeep,
  options: ImportOptions,
  listener: ImportListener,
): Promise<FileResult> {
  const reject = (line: number, column: string, reason: string) =>
    listener.reject({ file: file.name, line, column, reason });
  const size = fs.statSync(file.path).size;
  const progress = (rows: number, bytes: number) => listener.progress?.(file.name, rows, bytes, size);
  try {
    const load = await scope.run((trx) =>
      loadFile(trx, scope.stage, file.spec, file.path, {
        dateOrder: options.dateOrder,
        batchRows: options.batchRows,
        summaries,
        reject,
        progress,
      }),
    );
    const { read, inserted, updated, rejected } = load;
    return {
      file: file.name,
      table: file.spec.table,
      status: load.refused ? 'refused' : 'loaded',
      read,
      inserted,
      updated,
      rejected,
    };
  } catch (err) {
    // Rolled back: nothing of the file is stored, whatever had been counted before the failure.
    return {
      file: file.name,
      table: file.spec.table,
      status: 'failed',
      read: 0,
      inserted: 0,
      updated: 0,
      rejected: 0,
      error: describe(err),
    };
  }
}

function describe(err: unknown): string {
  const e = err as { message?: string; detail?: string };
  return [e.message ?? String(err), e.detail].filter(Boolean).join(' ');
}

interface Scope {
  stage: StageRows;
  /** Runs fn in a transaction (or savepoint) that is kept when fn succeeds and undone when it throws. */
  run<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  finish(): Promise<void>;
}

function fileTransactions(db: Kysely<Database>, stage: StageRows): Scope {
  return {
    stage,
    async run(fn) {
      const trx = await db.startTransaction().execute();
      try {
        const result = await fn(trx);
        await trx.commit().execute();
        return result;
      } catch (err) {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
        throw err;
      }
    },
    finish: () => Promise.resolve(),
  };
}

async function dryRunScope(db: Kysely<Database>, stage: StageRows): Promise<Scope> {
  const outer = await db.startTransaction().execute();
  return {
    stage,
    async run(fn) {
      const trx = await outer.savepoint('import_file').execute();
      try {
        const result = await fn(trx);
        await trx.releaseSavepoint('import_file').execute();
        return result;
      } catch (err) {
        await trx
          .rollbackToSavepoint('import_file')
          .execute()
          .catch(() => undefined);
        throw err;
      }
    },
    finish: () => outer.rollback().execute(),
  };
}
