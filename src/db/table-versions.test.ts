/**
 * Every table of the schema (src/db/schema.ts) and every other table the migrations create has its
 * version bookkeeping (migrations/table-version.ts: a version row and the triggers that change it),
 * unless it is listed as deliberately unversioned (UNVERSIONED_TABLES).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import ts from 'typescript';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import type { Engine } from './engine';
import { UNVERSIONED_TABLES } from './table-versions';

/** The tables schema.ts types: the members of its Database interface, read from the source. */
function schemaTables(): string[] {
  const file = path.join(__dirname, 'schema.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const database = source.statements.find(
    (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'Database',
  );
  if (database === undefined) throw new Error('schema.ts declares no interface Database');
  return database.members.map((member) => member.name!.getText(source));
}

/** The database's own tables, but the migrator's and table_versions. */
async function databaseTables(engine: Engine): Promise<string[]> {
  const { rows } =
    engine.kind === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(engine.db)
      : await sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(engine.db);
  return rows
    .map((row) => row.name)
    .filter((name) => !name.startsWith('kysely_migration') && name !== 'table_versions');
}

/** The names of the version triggers on each table, by table. */
async function versionTriggers(engine: Engine): Promise<Map<string, string[]>> {
  const { rows } =
    engine.kind === 'sqlite'
      ? await sql<{
          table: string;
          name: string;
        }>`select tbl_name as "table", name from sqlite_master where type = 'trigger' and sql like '%update table_versions%' order by name`.execute(
          engine.db,
        )
      : await sql<{ table: string; name: string }>`
        select c.relname as "table", t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where c.relnamespace = current_schema()::regnamespace and p.proname = 'bump_table_version' order by t.tgname`.execute(
          engine.db,
        );
  const triggers = new Map<string, string[]>();
  for (const row of rows) triggers.set(row.table, [...(triggers.get(row.table) ?? []), row.name]);
  return triggers;
}

describe.each(ENGINES)('version bookkeeping of every table: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('every table but the deliberately unversioned has a version row and its triggers, and they have none', async () => {
    const tables = [...new Set([...schemaTables(), ...(await databaseTables(engine))])].sort();
    const versions = new Set(
      (await sql<{ table_name: string }>`select table_name from table_versions`.execute(engine.db)).rows.map(
        (row) => row.table_name,
      ),
    );
    const triggers = await versionTriggers(engine);
    const expected = (table: string) =>
      kind === 'sqlite'
        ? ['delete', 'insert', 'update'].map((event) => `${table}_version_${event}`)
        : [`${table}_version`];
    const versioned = (table: string) =>
      versions.has(table) && (triggers.get(table) ?? []).join() === expected(table).join();
    const missing = tables.filter((table) => !UNVERSIONED_TABLES.includes(table) && !versioned(table));
    if (missing.length > 0) {
      throw new Error(
        `${missing.join(', ')}: no version bookkeeping. Call addTableVersion (src/db/migrations/table-version.ts) in the migration that creates it, or list it in UNVERSIONED_TABLES (src/db/table-versions.ts) with the reason`,
      );
    }
    expect(UNVERSIONED_TABLES.map((table) => [table, versions.has(table), triggers.get(table)])).toEqual(
      UNVERSIONED_TABLES.map((table) => [table, false, undefined]),
    );
  });
});
