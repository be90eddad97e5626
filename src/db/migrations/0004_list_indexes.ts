/** The PCN list's indexes in its order (newest first), so an officer's or customer's cheques need no sort. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.dropIndex('pcn_officer').execute();
  await s.createIndex('pcn_officer').on('pcn').columns(['sales_officer_id', 'pcn_date', 'pdc_id']).execute();
  await s.dropIndex('pcn_customer').execute();
  await s.createIndex('pcn_customer').on('pcn').columns(['customer_code', 'pcn_date', 'pdc_id']).execute();
}
