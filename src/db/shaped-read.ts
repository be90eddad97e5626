/**
 * A whole report read with its answer rows made where it is read (row-shape.ts, docs/architecture.md,
 * "Whole reports read by a shape"). The shape travels beside the compiled query to the driver
 * (shapeOf); a driver that knows nothing of shapes just runs the query.
 */
import { PostgresAdapter, type CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import { objectRowMaker, WholeShaper, type RowShape, type WholeOptions, type WholeShaped } from './row-shape';
import type { Database } from './schema';
import { READ_PART_ROWS, SHAPED_ROWS_PER_TURN } from '../tunables';

/** How a query's answer rows are to be made: by `shape`, the whole result at once (readWhole). */
export interface ShapeRequest {
  shape: RowShape;
  whole: WholeOptions;
}

const shapes = new WeakMap<CompiledQuery, ShapeRequest>();

/** How the answer rows of this compiled query are to be made, if it says. */
export function shapeOf(compiled: CompiledQuery): ShapeRequest | undefined {
  return shapes.get(compiled);
}

/** A driver's result with the rows made and written as JSON by the shape (a worker's `whole`). */
export type ShapedResult<R> = QueryResult<R> & { whole?: WholeShaped };

/** A whole result made into its answer rows (row-shape.ts, WholeShaped), its chunks text or Buffers. */
export type WholeRead = WholeShaped & { chunks: (string | Buffer)[] };

/**
 * The whole result of a query that can return tens of thousands of rows (a company-wide report) made
 * into its answer rows as JSON, with the sums and the order check of `options` (row-shape.ts,
 * WholeShaper): on an SQLite worker thread entirely in the worker, as bytes; on PostgreSQL a cursor's
 * part at a time here, as text, SHAPED_ROWS_PER_TURN rows per turn of the event loop; elsewhere (SQLite in
 * process) from the whole result, as text.
 */
export async function readWhole(db: Kysely<Database>, query: CompiledQuery, shape: RowShape, options: WholeOptions): Promise<WholeRead> {
  const compiled = carrying(query, { shape, whole: options });
  const executor = db.getExecutor();
  const shaper = () => new WholeShaper(objectRowMaker(shape), options, (row, name) => (row as Record<string, unknown>)[name], false);
  if (executor.adapter instanceof PostgresAdapter) {
    const made = shaper();
    for await (const part of executor.stream<Record<string, unknown>>(compiled, READ_PART_ROWS)) {
      // The driver's parsing of a fetch is one piece of work already; the rows are made in turns of their own.
      for (let from = 0; from < part.rows.length; from += SHAPED_ROWS_PER_TURN) {
        if (from > 0) await new Promise((resolve) => setImmediate(resolve));
        made.add(part.rows.slice(from, from + SHAPED_ROWS_PER_TURN));
      }
    }
    return withBuffers(made.result());
  }
  const result: ShapedResult<unknown> = await db.executeQuery(compiled);
  // A transfer from the worker arrives as a plain Uint8Array: withBuffers makes it a Buffer of the same memory.
  if (result.whole !== undefined) return withBuffers(result.whole);
  const made = shaper();
  made.add(result.rows);
  return withBuffers(made.result());
}

function withBuffers(shaped: WholeShaped): WholeRead {
  const chunks = shaped.chunks.map((chunk) => (typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  return { ...shaped, chunks };
}

/** A copy of the compiled query carrying the request: the caller's compiled query stays a plain one. */
function carrying(query: CompiledQuery, request: ShapeRequest): CompiledQuery {
  const compiled: CompiledQuery = { ...query };
  shapes.set(compiled, request);
  return compiled;
}
