/** The dashboard counts the open warranty requests of a scope's customers at every call: from this index alone. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('warranty_requests_customer')
    .on('warranty_requests')
    .columns(['customer_code', 'status'])
    .execute();
}
