/**
 * Indexes that fit the PCN list's filters and its order (newest first: pcn_date, then pdc_id, both
 * descending): an officer's or a customer's cheques come off the index in the answer's order, without
 * a sort of their rows (docs/behaviour.md: getPCNList lists newest first). They replace the 0001 indexes on the same
 * leading column.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropIndex('pcn_officer').execute();
  await s.createIndex('pcn_officer').on('pcn').columns(['sales_officer_id', 'pcn_date', 'pdc_id']).execute();
  await s.dropIndex('pcn_customer').execute();
  await s.createIndex('pcn_customer').on('pcn').columns(['customer_code', 'pcn_date', 'pdc_id']).execute();
}
