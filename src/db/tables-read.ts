/**
 * Which tables a read read: every statement sent to the database while it runs (whatever built it:
 * Kysely's builders, raw `sql`, a compiled query, a cursor) is noticed at the driver, and the words of
 * its SQL are taken as the names it may have read (table-versions.ts, sqlWords). That over-counts,
 * which only makes an answer depend on more than it needs; it never misses a table.
 *
 * The answer cache (src/services/answer-cache.ts) keeps an answer under the versions of those tables.
 * The read is followed through its async calls (AsyncLocalStorage), so requests running at the same
 * time each notice their own statements. A read that took the tables' versions before it began also
 * has its small SELECTs outside transactions answered from kept rows where their tables are unchanged
 * (statement-results.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { isSelect, type StatementResults } from './statement-results';
import { sqlWords, type TableVersions } from './table-versions';
import { shapeOf } from './shaped-read';

interface Read {
  words: Set<string>;
  /** The versions taken before the read began. */
  versions: TableVersions;
}

const reading = new AsyncLocalStorage<Read>();

/** Runs a read that took these versions before it began, and gives the words of every statement it sent, lower case. */
export async function withTablesRead<T>(versions: TableVersions, work: () => Promise<T>): Promise<{ result: T; words: ReadonlySet<string> }> {
  const words = new Set<string>();
  const result = await reading.run({ words, versions }, work);
  return { result, words };
}

/** The dialect with its statements noticed, and small reads kept in `results` when given; everything else is the dialect's own. */
export function noticingTablesRead(dialect: Dialect, results?: StatementResults): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new NoticingDriver(dialect.createDriver(), results),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** A connection handed out: the driver's own behind it, and whether a transaction is open on it. */
class NoticingConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly results: StatementResults | undefined,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const read = reading.getStore();
    if (read === undefined) return this.inner.executeQuery<R>(query);
    sqlWords(query.sql, read.words);
    // A shaped read's rows come as JSON text (shaped-read.ts), which the kept results do not hold.
    if (this.results === undefined || this.inTransaction || !isSelect(query) || shapeOf(query) !== undefined) return this.inner.executeQuery<R>(query);
    const rows = await this.results.read(query, read.versions, async () => (await this.inner.executeQuery<Record<string, unknown>>(query)).rows);
    return { rows: rows as R[] };
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const read = reading.getStore();
    if (read !== undefined) sqlWords(query.sql, read.words);
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

function own(connection: DatabaseConnection): DatabaseConnection {
  if (!(connection instanceof NoticingConnection)) throw new Error('a connection this driver did not hand out');
  return connection.inner;
}

class NoticingDriver implements Driver {
  constructor(
    private readonly driver: Driver,
    private readonly results: StatementResults | undefined,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new NoticingConnection(await this.driver.acquireConnection(), this.results);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.driver.beginTransaction(own(connection), settings);
    (connection as NoticingConnection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as NoticingConnection).inTransaction = false;
    await this.driver.commitTransaction(own(connection));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as NoticingConnection).inTransaction = false;
    await this.driver.rollbackTransaction(own(connection));
  }

  // Both engines' drivers have savepoints (the import puts each file under one).
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints().savepoint(own(connection), name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints().rollbackToSavepoint(own(connection), name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints().releaseSavepoint(own(connection), name, compile);
  }

  private savepoints(): Required<Pick<Driver, 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'>> {
    const driver = this.driver;
    if (driver.savepoint === undefined || driver.rollbackToSavepoint === undefined || driver.releaseSavepoint === undefined) throw new Error('this driver has no savepoints');
    return driver as Required<Driver>;
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as NoticingConnection).inTransaction = false;
    return this.driver.releaseConnection(own(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}
