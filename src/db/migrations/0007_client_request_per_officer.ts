/**
 * A ClientRequestId is unique per officer, not across the table, so two officers' apps that pick the
 * same key each get their own request. SQLite cannot drop a column's UNIQUE: the table is rebuilt as
 * its ALTER TABLE page describes, with foreign keys off so the files keep their parent rows.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../engine';
import { addVersionTriggers } from './table-version';

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.alterTable('warranty_requests').dropConstraint('warranty_requests_client_request_id_key').execute();
  } else {
    await rebuildSqliteTable(db, t);
  }
  await db.schema
    .createIndex('warranty_requests_client_key')
    .unique()
    .on('warranty_requests')
    .columns(['sales_officer_id', 'client_request_id'])
    .execute();
}

const COLUMNS = [
  'request_no',
  'client_request_id',
  'customer_code',
  'sales_officer_id',
  'product_code',
  'serial_no',
  'invoice_no',
  'purchase_date',
  'complaint',
  'status',
  'transporter',
  'lr_no',
  'lr_date',
  'vehicle_no',
  'created_at',
  'updated_at',
  'version',
  'change_seq',
] as const;

async function rebuildSqliteTable(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  // The migrator runs SQLite migrations outside a transaction, where this pragma takes effect.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('warranty_requests_next')
        .addColumn('request_no', 'text', (c) => c.primaryKey())
        .addColumn('client_request_id', 'text')
        .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
        .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
        .addColumn('serial_no', 'text', (c) => c.notNull())
        .addColumn('invoice_no', 'text', (c) => c.references('invoices.invoice_no'))
        .addColumn('purchase_date', t.date)
        .addColumn('complaint', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('SUBMITTED', 'DISPATCHED', 'RECEIVED', 'APPROVED', 'REJECTED', 'CLOSED')`),
        )
        .addColumn('transporter', 'text')
        .addColumn('lr_no', 'text')
        .addColumn('lr_date', t.date)
        .addColumn('vehicle_no', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('change_seq', 'bigint', (c) => c.notNull().unique())
        .execute();
      const columns = sql.join(COLUMNS.map((c) => sql.id(c)));
      await sql`insert into warranty_requests_next (${columns}) select ${columns} from warranty_requests`.execute(trx);
      await trx.schema.dropTable('warranty_requests').execute();
      await trx.schema.alterTable('warranty_requests_next').renameTo('warranty_requests').execute();
      await trx.schema
        .createIndex('warranty_requests_officer')
        .on('warranty_requests')
        .columns(['sales_officer_id', 'change_seq'])
        .execute();
      await trx.schema
        .createIndex('warranty_requests_customer')
        .on('warranty_requests')
        .columns(['customer_code', 'status'])
        .execute();
      await addVersionTriggers(trx, 'warranty_requests');
      const broken = [
        ...(await sql`pragma foreign_key_check(warranty_requests)`.execute(trx)).rows,
        ...(await sql`pragma foreign_key_check(warranty_files)`.execute(trx)).rows,
      ];
      if (broken.length > 0) throw new Error('warranty_requests rebuild left rows whose references do not hold');
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
