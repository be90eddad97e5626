/**
 * Which tables a piece of work read: every statement sent to the database while it runs (whatever
 * built it: Kysely's builders, raw `sql`, a compiled query, a cursor) is noticed at the driver, and the
 * words of its SQL are taken as the names it may have read. That over-counts (columns, aliases and
 * keywords are words too, and they name no table), which only makes an answer depend on more than it
 * needs; it never misses a table, because SQL cannot read a table without writing its name.
 *
 * The answer cache (src/services/answer-cache.ts) keeps an answer under the versions of those tables
 * (table-versions.ts). The work is followed through its async calls (AsyncLocalStorage), so requests
 * running at the same time each notice their own statements.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';

const noticing = new AsyncLocalStorage<Set<string>>();

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Runs the work and gives the words of every statement it sent, lower case. */
export async function withTablesRead<T>(work: () => Promise<T>): Promise<{ result: T; words: ReadonlySet<string> }> {
  const words = new Set<string>();
  const result = await noticing.run(words, work);
  return { result, words };
}

function notice(query: CompiledQuery): void {
  const words = noticing.getStore();
  if (words === undefined) return;
  for (const [word] of query.sql.matchAll(WORD)) words.add(word.toLowerCase());
}

/** The dialect with its statements noticed; everything else is the dialect's own. */
export function noticingTablesRead(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new NoticingDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** The driver's own connection behind each connection handed out. */
const own = new WeakMap<DatabaseConnection, DatabaseConnection>();

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  const inner = own.get(connection);
  if (inner === undefined) throw new Error('a connection this driver did not hand out');
  return inner;
}

class NoticingDriver implements Driver {
  constructor(private readonly driver: Driver) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await this.driver.acquireConnection();
    const connection: DatabaseConnection = {
      executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        notice(query);
        return inner.executeQuery<R>(query);
      },
      streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
        notice(query);
        return inner.streamQuery<R>(query, chunkSize);
      },
    };
    own.set(connection, inner);
    return connection;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.driver.beginTransaction(unwrap(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.commitTransaction(unwrap(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.driver.rollbackTransaction(unwrap(connection));
  }

  // Both engines' drivers have savepoints (the import puts each file under one).
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints().savepoint(unwrap(connection), name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints().rollbackToSavepoint(unwrap(connection), name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.savepoints().releaseSavepoint(unwrap(connection), name, compile);
  }

  private savepoints(): Required<Pick<Driver, 'savepoint' | 'rollbackToSavepoint' | 'releaseSavepoint'>> {
    const driver = this.driver;
    if (driver.savepoint === undefined || driver.rollbackToSavepoint === undefined || driver.releaseSavepoint === undefined) throw new Error('this driver has no savepoints');
    return driver as Required<Driver>;
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}
