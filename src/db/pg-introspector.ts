/**
 * What Kysely's migrator reads of a PostgreSQL database's tables, limited to the engine's schema:
 * Kysely's own introspector reads every column of every schema, several times per start, so the more
 * schemas a database holds, the longer every migration run took.
 */
import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/** The migrator's own tables, which Kysely's introspector leaves out unless asked. */
const KYSELY_TABLES = [DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE];

/** A column as Kysely describes it (its comment null when it has none), with its table's name, schema and kind. */
type ColumnRow = Omit<ColumnMetadata, 'comment'> & {
  comment: string | null;
  table: string;
  schema: string;
  table_type: string;
};

export class SchemaIntrospector implements DatabaseIntrospector {
  private readonly everything: PostgresIntrospector;

  constructor(
    private readonly db: Kysely<unknown>,
    /** The schema DATABASE_URL names; undefined: the connection's current schema. */
    private readonly schema: string | undefined,
  ) {
    this.everything = new PostgresIntrospector(db);
  }

  /** Every schema, as Kysely lists them (one row each: cheap). */
  getSchemas(): Promise<SchemaMetadata[]> {
    return this.everything.getSchemas();
  }

  /** The tables and views of the engine's schema with their columns, as Kysely's introspector describes them. */
  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const schema = this.schema === undefined ? sql<string>`current_schema()` : sql<string>`${this.schema}`;
    const rows = await sql<ColumnRow>`
      select a.attname as name, typ.typname as "dataType", dtns.nspname as "dataTypeSchema", not a.attnotnull as "isNullable",
        a.atthasdef as "hasDefaultValue", col_description(a.attrelid, a.attnum) as comment,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null as "isAutoIncrementing",
        c.relname as "table", c.relkind as table_type, ns.nspname as "schema"
      from pg_catalog.pg_attribute a
        inner join pg_catalog.pg_class c on a.attrelid = c.oid
        inner join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
        inner join pg_catalog.pg_type typ on a.atttypid = typ.oid
        inner join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      where ns.nspname = ${schema} and c.relkind in ('r', 'v', 'p') and a.attnum >= 0 and not a.attisdropped
        and (${options.withInternalKyselyTables ?? false} or c.relname not in (${sql.join(KYSELY_TABLES)}))
      order by c.relname, a.attnum`.execute(this.db);
    return tablesOf(rows.rows);
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** The rows (one per column, a table's together) as tables with their columns. */
function tablesOf(rows: readonly ColumnRow[]): TableMetadata[] {
  const tables = new Map<string, TableMetadata>();
  for (const { table: name, schema, table_type, comment, ...column } of rows) {
    let table = tables.get(name);
    if (table === undefined) tables.set(name, (table = { name, schema, isView: table_type === 'v', columns: [] }));
    table.columns.push({ ...column, comment: comment ?? undefined });
  }
  return [...tables.values()];
}

/** PostgreSQL as Kysely speaks it, with its introspection limited to one schema (SchemaIntrospector). */
export class SchemaPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    /** The schema DATABASE_URL names; undefined: the connection's current schema. */
    private readonly schema: string | undefined,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaIntrospector(db, this.schema);
  }
}
