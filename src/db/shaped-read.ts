/**
 * A query read with its answer rows made where it is read (row-shape.ts, docs/operations.md "Rows
 * shaped where they are read"): on an SQLite worker thread the worker makes the rows and writes their
 * JSON, and the main thread takes that one string; elsewhere (PostgreSQL, SQLite in process, a result
 * too large for one message) the rows are made here from the row objects by the same shape.
 *
 * The shape travels beside the compiled query to the driver (shapeOf); a driver that knows nothing of
 * shapes just runs the query.
 */
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { objectRowMaker, type RowShape } from './row-shape';
import type { ShapedRows } from './sqlite-worker/protocol';
import type { Database } from './schema';

const shapes = new WeakMap<CompiledQuery, RowShape>();

/** The shape the answer rows of this compiled query are to be made by, if any. */
export function shapeOf(compiled: CompiledQuery): RowShape | undefined {
  return shapes.get(compiled);
}

/** A driver's result with the rows made and written as JSON by the shape (a worker's `shaped`). */
export type ShapedResult<R> = QueryResult<R> & { shaped?: ShapedRows };

/** The answer rows: as their JSON text when the worker wrote it, else as objects. */
export type ShapedRead = { count: number; json: string } | { count: number; rows: Record<string, unknown>[] };

export async function readShaped(db: Kysely<Database>, query: CompiledQuery, shape: RowShape): Promise<ShapedRead> {
  // A copy carries the shape: the caller's compiled query stays a plain one.
  const compiled: CompiledQuery = Object.assign({}, query);
  shapes.set(compiled, shape);
  const result: ShapedResult<unknown> = await db.executeQuery(compiled);
  if (result.shaped !== undefined) return result.shaped;
  const Row = objectRowMaker(shape);
  const rows = result.rows.map((row) => new Row(row));
  return { count: rows.length, rows };
}
