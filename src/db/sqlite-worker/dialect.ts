/**
 * A Kysely dialect for SQLite on worker threads (worker-pool.ts), so a long query never blocks the event loop: a
 * plain SELECT runs on a reader, anything else on the writer. A transaction holds one worker to its end: the writer
 * with BEGIN IMMEDIATE (two writers never deadlock upgrading a read lock), or for 'read only' a reader's snapshot.
 */
import {
  CompiledQuery,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { WorkerPool, type Slot, type SlotGroup, type WorkerPoolOptions } from './worker-pool';
import type { WorkerLink } from './worker-link';
import { traceQuery } from '../../tracing/spans';
import { CURSOR_BATCH_ROWS, WORKER_MESSAGE_ROWS } from '../../tunables';

export class SqliteWorkerDialect implements Dialect {
  readonly pool: WorkerPool;

  constructor(options: WorkerPoolOptions) {
    this.pool = new WorkerPool(options);
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new SqliteWorkerDriver(this.pool);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

class SqliteWorkerDriver implements Driver {
  constructor(private readonly pool: WorkerPool) {}

  init(): Promise<void> {
    return this.pool.start();
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new WorkerConnection(this.pool));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return (connection as WorkerConnection).begin(settings.accessMode === 'read only');
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as WorkerConnection).finish('commit');
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return (connection as WorkerConnection).finish('rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as WorkerConnection).savepointCommand(`savepoint ${quoted(name)}`);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as WorkerConnection).savepointCommand(`rollback to ${quoted(name)}`);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as WorkerConnection).savepointCommand(`release ${quoted(name)}`);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as WorkerConnection).release();
  }

  destroy(): Promise<void> {
    return this.pool.close();
  }
}

function quoted(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** A worker held for a while: its slot and the very worker that was in it when it was taken. */
interface Lease {
  slot: Slot;
  link: WorkerLink;
}

/**
 * What Kysely calls a connection: it borrows a worker per query, or holds one for a transaction,
 * whose queries fail if that worker died (they never move to another).
 */
class WorkerConnection implements DatabaseConnection {
  private pinned: Lease | undefined;

  constructor(private readonly pool: WorkerPool) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (this.pinned) return this.run<R>(this.pinned, compiled);
    const select = isSelect(compiled);
    // A short read may run on the writer when snapshots hold every reader; a snapshot or cursor never does.
    const lease = await this.lease(select ? this.pool.readGroup : this.pool.writer, select);
    try {
      return await this.run<R>(lease, compiled);
    } finally {
      lease.slot.group.release(lease.slot);
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('Only SELECT queries can be streamed');
    const own = this.pinned === undefined;
    const lease = this.pinned ?? (await this.lease(this.pool.readGroup));
    let done = false;
    try {
      const link = lease.link;
      const max = chunkSize ?? CURSOR_BATCH_ROWS;
      // The first batch comes with the opening: a short list is one message each way.
      let batch = await traceQuery(compiled.sql, () =>
        link.request({ op: 'open', sql: compiled.sql, params: compiled.parameters, max }),
      );
      for (;;) {
        done = batch.done === true;
        if (batch.rows.length > 0) yield { rows: batch.rows as R[] };
        if (done) break;
        batch = await link.request({ op: 'next', max });
      }
    } finally {
      if (!done && lease.link.alive) await lease.link.request({ op: 'close' }).catch(() => undefined);
      if (own) lease.slot.group.release(lease.slot);
    }
  }

  async begin(readOnly: boolean): Promise<void> {
    if (this.pinned) throw new Error('A transaction is already open on this connection');
    const lease = await this.lease(readOnly ? this.pool.readGroup : this.pool.writer);
    const sql = readOnly ? 'begin' : 'begin immediate';
    try {
      await traceQuery(sql, () => lease.link.request({ op: 'exec', sql, params: [] }));
    } catch (err) {
      lease.slot.group.release(lease.slot);
      throw err;
    }
    this.pinned = lease;
  }

  /** COMMIT or ROLLBACK; a COMMIT that fails is rolled back, so no worker goes back with a transaction open. */
  async finish(command: 'commit' | 'rollback'): Promise<void> {
    const lease = this.pinned;
    if (!lease) return;
    try {
      // A worker that died took its uncommitted transaction with it: rolled back already.
      if (command === 'rollback' && !lease.link.alive) return;
      await traceQuery(command, () => lease.link.request({ op: 'exec', sql: command, params: [] }));
    } catch (err) {
      if (command === 'commit' && lease.link.alive)
        await lease.link.request({ op: 'exec', sql: 'rollback', params: [] }).catch(() => undefined);
      throw err;
    } finally {
      this.pinned = undefined;
      lease.slot.group.release(lease.slot);
    }
  }

  async savepointCommand(sql: string): Promise<void> {
    if (!this.pinned) throw new Error('A savepoint needs an open transaction');
    await this.run(this.pinned, CompiledQuery.raw(sql));
  }

  /** Kysely is done with the connection: a transaction still open here is rolled back. */
  async release(): Promise<void> {
    if (this.pinned) await this.finish('rollback').catch(() => undefined);
  }

  /** Borrows a worker of the group (a short read: or the writer, when lent); a dead worker is replaced before it is lent again. */
  private async lease(group: SlotGroup, shortRead = false): Promise<Lease> {
    const slot = await group.acquire(shortRead);
    try {
      return { slot, link: await slot.current() };
    } catch (err) {
      slot.group.release(slot);
      throw err;
    }
  }

  /** One statement, traced (src/tracing/spans.ts) as the pg instrumentation traces PostgreSQL's. */
  private run<R>(lease: Lease, compiled: CompiledQuery): Promise<QueryResult<R>> {
    return traceQuery(compiled.sql, () => this.exec<R>(lease, compiled));
  }

  private async exec<R>(lease: Lease, compiled: CompiledQuery): Promise<QueryResult<R>> {
    const answer = await lease.link.request({ op: 'exec', sql: compiled.sql, params: compiled.parameters });
    if (answer.done === false) {
      // A large result comes a part per message (protocol.ts), other work running between them.
      const rows = answer.rows;
      for (let part = answer; part.done === false;) {
        part = await lease.link.request({ op: 'next', max: WORKER_MESSAGE_ROWS });
        for (const row of part.rows) rows.push(row);
      }
      return { rows: rows as R[] };
    }
    if (answer.numAffectedRows === undefined) return { rows: answer.rows as R[] };
    return { rows: answer.rows as R[], numAffectedRows: answer.numAffectedRows, insertId: answer.insertId };
  }
}

/** A SELECT built with Kysely, or raw SQL that is a plain SELECT: it goes to a reader. */
function isSelect(compiled: CompiledQuery): boolean {
  return SelectQueryNode.is(compiled.query) || (RawNode.is(compiled.query) && /^\s*select\b/i.test(compiled.sql));
}
