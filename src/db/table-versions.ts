/**
 * The tables' versions (migration 0005), changed by the database in every write's transaction: the answer cache keeps an
 * answer under them (docs/operations.md, "Answer cache"); credentials and rate limits have none. SQLite reads them again only
 * when `PRAGMA data_version` says another connection committed (in memory: none); PostgreSQL reads its one-page table.
 */
import SqliteDatabase from 'better-sqlite3';
import type { Pool } from 'pg';

/**
 * The tables deliberately without a version (credentials, 0002): no answer reads them, since the access
 * guard checks a caller before the answer cache is asked. Every other table's migration calls
 * addTableVersion (migrations/table-version.ts); src/db/table-versions.test.ts holds them to it.
 */
export const UNVERSIONED_TABLES: readonly string[] = ['user_passwords', 'api_keys'];

/** Table name to version; null for a table that has none. */
export type TableVersions = ReadonlyMap<string, string | null>;

export interface DataVersion {
  read(): TableVersions | Promise<TableVersions>;
  close(): void;
}

/** The tables an answer was read from, each with its version then. */
export type Dependencies = readonly (readonly [table: string, version: string])[];

/**
 * What an answer read from these tables (a read's declaration, operations/types.ts) depends on: their
 * versions. Undefined when it cannot be kept: a table has no version.
 */
export function dependencies(versions: TableVersions, tables: readonly string[]): Dependencies | undefined {
  const depends: (readonly [string, string])[] = [];
  for (const table of tables) {
    const version = versions.get(table);
    if (version === undefined || version === null) return undefined;
    depends.push([table, version]);
  }
  return depends;
}

/** Whether every table an answer was read from is still at the version it had then. */
export function unchanged(depends: Dependencies, versions: TableVersions): boolean {
  return depends.every(([table, version]) => versions.get(table) === version);
}

interface VersionRow {
  table_name: string;
  /** A random integer on SQLite, a UUID on PostgreSQL (migration 0005). */
  version: string | number | bigint | null;
}

function versionMap(rows: readonly VersionRow[]): TableVersions {
  return new Map(rows.map((row) => [row.table_name, row.version === null ? null : String(row.version)]));
}

export function sqliteDataVersion(file: string): DataVersion | undefined {
  if (file === ':memory:' || file === '') return undefined;
  let reader:
    | {
        connection: SqliteDatabase.Database;
        dataVersion: SqliteDatabase.Statement<[], number>;
        tables: SqliteDatabase.Statement<[], VersionRow>;
      }
    | undefined;
  let seen: { dataVersion: number; versions: TableVersions } | undefined;
  const open = () => {
    const connection = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    try {
      // Prepared once (connection.pragma() would prepare it again at every read).
      return {
        connection,
        dataVersion: connection.prepare<[], number>('pragma data_version').pluck(),
        tables: connection
          .prepare<[], VersionRow>(
            `
          select m.name as table_name, v.version
          from sqlite_master m left join table_versions v on v.table_name = m.name
          where m.type = 'table'`,
          )
          .safeIntegers(),
      };
    } catch (error) {
      connection.close();
      throw error;
    }
  };
  return {
    read() {
      // Opened at the first read: by then the server's writer thread has created and migrated the file.
      reader ??= open();
      // data_version first, then the versions: a commit between the two leaves versions newer than the
      // name they are kept under, and the next read, seeing another name, reads them again. The
      // other order could keep older versions under the newer name, and serve answers gone stale.
      const now = reader.dataVersion.get();
      if (now === undefined) throw new Error('pragma data_version gave no value');
      if (seen?.dataVersion !== now) seen = { dataVersion: now, versions: versionMap(reader.tables.all()) };
      return seen.versions;
    },
    close() {
      reader?.connection.close();
      reader = undefined;
      seen = undefined;
    },
  };
}

export function postgresDataVersion(pool: Pool): DataVersion {
  return {
    async read() {
      const result = await pool.query<VersionRow>(`
        select c.relname as table_name, v.version
        from pg_class c left join table_versions v on v.table_name = c.relname
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f')`);
      return versionMap(result.rows);
    },
    close() {},
  };
}
