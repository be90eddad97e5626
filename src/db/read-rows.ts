/**
 * The rows of a query that can return tens of thousands (a company-wide report), taken in a part at
 * a time, so that the event loop answers other requests between the parts: on PostgreSQL through a
 * cursor, READ_PART_ROWS rows per fetch (without it the driver parses whatever the socket holds,
 * megabytes, in one go); on SQLite as the worker thread hands them over (sqlite-worker/protocol.ts).
 * Either way one statement, so one consistent view of the data.
 */
import { PostgresAdapter, type CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema';
import { READ_PART_ROWS } from '../tunables';

export async function readRows<R>(db: Kysely<Database>, query: CompiledQuery<R>): Promise<R[]> {
  const executor = db.getExecutor();
  if (!(executor.adapter instanceof PostgresAdapter)) return (await db.executeQuery(query)).rows;
  const rows: R[] = [];
  for await (const part of executor.stream<R>(query, READ_PART_ROWS)) {
    for (const row of part.rows) rows.push(row);
  }
  return rows;
}
