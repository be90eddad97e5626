/**
 * Multi-row inserts in batches under the engines' bound-parameter limits (SQLite 32766, PostgreSQL
 * 65535), counting the rows per table. A statement's text is compiled once per table and batch size
 * and reused with new values: the query builder's work dominated hundreds of thousands of rows.
 */
import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Database, TableName } from '../db/schema';

const MAX_PARAMETERS = 30_000;

export class RowWriter {
  readonly counts: Partial<Record<TableName, number>> = {};
  private readonly statements = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  async insert<T extends TableName>(table: T, rows: Insertable<Database[T]>[]): Promise<void> {
    this.counts[table] = (this.counts[table] ?? 0) + rows.length;
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]);
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    for (let i = 0; i < rows.length; i += perStatement) {
      await this.insertBatch(table, columns, rows.slice(i, i + perStatement));
    }
  }

  private async insertBatch<T extends TableName>(table: T, columns: string[], rows: Insertable<Database[T]>[]): Promise<void> {
    const parameters: unknown[] = [];
    for (const row of rows) for (const column of columns) parameters.push((row as Record<string, unknown>)[column]);
    const key = `${table}:${columns.join(',')}:${rows.length}`;
    let text = this.statements.get(key);
    if (text === undefined) {
      const compiled = this.db.insertInto(table).values(rows).compile();
      // Every row has the same columns in the same order, so the bound values line up row by row.
      if (compiled.parameters.length !== parameters.length) throw new Error(`insert into ${table}: rows differ in their columns`);
      text = compiled.sql;
      this.statements.set(key, text);
    }
    await this.db.executeQuery(CompiledQuery.raw(text, parameters));
  }
}
