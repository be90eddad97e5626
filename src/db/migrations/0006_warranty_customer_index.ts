/**
 * An index for the dashboard's count of open warranty requests (getSalesReportStats, docs/behaviour.md):
 * the requests of the customers within the user's scope that are neither rejected nor closed. The count
 * is read again at every dashboard request, since field officers file requests all day
 * (docs/performance.md); without an index on the customer it read every warranty request of the company for one
 * officer's customers. With the status in the index as well, the count reads the index alone
 * (docs/operations.md, "Statement results").
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('warranty_requests_customer').on('warranty_requests').columns(['customer_code', 'status']).execute();
}
