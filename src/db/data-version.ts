/**
 * A name for the state of the data: equal names mean that no write was committed in between, by any
 * connection of any process (docs/operations.md, "Answer cache"). Read before a query, it tells the
 * answer cache (src/services/answer-cache.ts) which data an answer was read from.
 *
 * - SQLite: `PRAGMA data_version` of a connection of this thread that never writes. SQLite changes
 *   it whenever another connection commits to the file, the server's own worker threads, an import
 *   or a manual fix from another process alike, and reading it is a look at the WAL index (a few
 *   microseconds, no query). A private in-memory database has no other connection to see it: no
 *   version, nothing cached.
 * - PostgreSQL: the current snapshot (`pg_current_snapshot()`): its xmin, xmax and in-progress list
 *   change whenever any transaction of the cluster commits or ends, so equal snapshots see exactly
 *   the same committed rows. One round trip, no table read, no trigger on any write; writes outside
 *   this database only make the cache forget sooner.
 */
import SqliteDatabase from 'better-sqlite3';
import type { Pool } from 'pg';

export interface DataVersion {
  read(): string | Promise<string>;
  close(): void;
}

export function sqliteDataVersion(file: string): DataVersion | undefined {
  if (file === ':memory:' || file === '') return undefined;
  let connection: SqliteDatabase.Database | undefined;
  let statement: SqliteDatabase.Statement<[], number> | undefined;
  return {
    read() {
      // Opened at the first read: by then the server's writer thread has created and migrated the file.
      // The statement is prepared once (connection.pragma() would prepare it again at every read).
      if (statement === undefined) {
        const opened = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
        try {
          statement = opened.prepare<[], number>('pragma data_version').pluck();
        } catch (error) {
          opened.close();
          throw error;
        }
        connection = opened;
      }
      return String(statement.get());
    },
    close() {
      connection?.close();
      connection = undefined;
      statement = undefined;
    },
  };
}

export function postgresDataVersion(pool: Pool): DataVersion {
  return {
    async read() {
      const result = await pool.query<{ v: string }>('select pg_current_snapshot()::text as v');
      return result.rows[0].v;
    },
    close() {},
  };
}
