/**
 * The initial schema (docs/architecture.md, "The data"); types in src/db/schema.ts.
 * Indexes serve the report filters: dates, officers, customers, and the sync order.
 */
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../engine';

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const s = db.schema;

  await s
    .createTable('zones')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('states')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('zone_code', 'text', (c) => c.notNull().references('zones.code'))
    .execute();
  await s
    .createTable('profit_centers')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('product_categories')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();
  await s
    .createTable('products')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category_code', 'text', (c) => c.notNull().references('product_categories.code'))
    .addColumn('unit_price', t.money, (c) => c.notNull())
    .execute();

  await s
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sqlIn('role', ['ADMIN', 'ZM', 'AM', 'SO'])))
    .addColumn('manager_id', 'text', (c) => c.references('users.id'))
    .addColumn('zone_code', 'text', (c) => c.references('zones.code'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await s.createIndex('users_manager').on('users').column('manager_id').execute();

  await s
    .createTable('customers')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state_code', 'text', (c) => c.notNull().references('states.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('credit_limit', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await s.createIndex('customers_officer').on('customers').column('sales_officer_id').execute();
  await s.createIndex('customers_state').on('customers').column('state_code').execute();

  await s
    .createTable('customer_profit_centers')
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('profit_center_code', 'text', (c) => c.notNull().references('profit_centers.code'))
    .addPrimaryKeyConstraint('customer_profit_centers_pk', ['customer_code', 'profit_center_code'])
    .execute();

  await s
    .createTable('orders')
    .addColumn('order_no', 'text', (c) => c.primaryKey())
    .addColumn('order_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('profit_center_code', 'text', (c) => c.notNull().references('profit_centers.code'))
    .addColumn('status', 'text', (c) => c.notNull().check(sqlIn('status', ['OPEN', 'CLOSED', 'CANCELLED'])))
    .execute();
  await s.createIndex('orders_date').on('orders').column('order_date').execute();
  await s.createIndex('orders_customer').on('orders').columns(['customer_code', 'order_date']).execute();
  await s.createIndex('orders_officer').on('orders').columns(['sales_officer_id', 'order_date']).execute();

  await s
    .createTable('order_lines')
    .addColumn('order_no', 'text', (c) => c.notNull().references('orders.order_no'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
    .addColumn('category_code', 'text', (c) => c.notNull().references('product_categories.code'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('value', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('order_lines_pk', ['order_no', 'line_no'])
    .execute();

  await s
    .createTable('invoices')
    .addColumn('invoice_no', 'text', (c) => c.primaryKey())
    .addColumn('invoice_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('profit_center_code', 'text', (c) => c.notNull().references('profit_centers.code'))
    .addColumn('order_no', 'text', (c) => c.references('orders.order_no'))
    .addColumn('amount', t.money, (c) => c.notNull())
    .execute();
  await s.createIndex('invoices_date').on('invoices').column('invoice_date').execute();
  await s.createIndex('invoices_customer').on('invoices').columns(['customer_code', 'invoice_date']).execute();
  await s.createIndex('invoices_officer').on('invoices').columns(['sales_officer_id', 'invoice_date']).execute();
  await s.createIndex('invoices_order').on('invoices').column('order_no').execute();

  await s
    .createTable('invoice_lines')
    .addColumn('invoice_no', 'text', (c) => c.notNull().references('invoices.invoice_no'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
    .addColumn('category_code', 'text', (c) => c.notNull().references('product_categories.code'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('value', t.money, (c) => c.notNull())
    .addColumn('order_no', 'text')
    .addColumn('order_line_no', 'integer')
    .addPrimaryKeyConstraint('invoice_lines_pk', ['invoice_no', 'line_no'])
    .addForeignKeyConstraint('invoice_lines_order_line', ['order_no', 'order_line_no'], 'order_lines', [
      'order_no',
      'line_no',
    ])
    .execute();
  await s.createIndex('invoice_lines_order_line').on('invoice_lines').columns(['order_no', 'order_line_no']).execute();

  await s
    .createTable('receipts')
    .addColumn('receipt_no', 'text', (c) => c.primaryKey())
    .addColumn('receipt_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', t.money, (c) => c.notNull())
    .execute();
  await s.createIndex('receipts_date').on('receipts').column('receipt_date').execute();
  await s.createIndex('receipts_customer').on('receipts').columns(['customer_code', 'receipt_date']).execute();
  await s.createIndex('receipts_officer').on('receipts').columns(['sales_officer_id', 'receipt_date']).execute();

  await s
    .createTable('ledger_entries')
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('entry_date', t.date, (c) => c.notNull())
    .addColumn('doc_type', 'text', (c) =>
      c.notNull().check(sqlIn('doc_type', ['INVOICE', 'RECEIPT', 'DEBIT_NOTE', 'CREDIT_NOTE', 'OPENING'])),
    )
    .addColumn('doc_no', 'text', (c) => c.notNull())
    .addColumn('debit', t.money, (c) => c.notNull().defaultTo(0))
    .addColumn('credit', t.money, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('ledger_entries_pk', ['doc_type', 'doc_no', 'customer_code'])
    .execute();
  await s.createIndex('ledger_customer_date').on('ledger_entries').columns(['customer_code', 'entry_date']).execute();

  await s
    .createTable('pcn')
    .addColumn('pdc_id', 'text', (c) => c.primaryKey())
    .addColumn('pcn_no', 'text', (c) => c.notNull())
    .addColumn('pcn_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('payment_type', 'text', (c) => c.notNull().check(sqlIn('payment_type', ['PDC', 'CURRENT', 'ADVANCE'])))
    .addColumn('payment_method', 'text', (c) =>
      c.notNull().check(sqlIn('payment_method', ['CHEQUE', 'DD', 'NEFT', 'RTGS', 'UPI', 'CASH'])),
    )
    .addColumn('cheque_no', 'text')
    .addColumn('cheque_date', t.date)
    .addColumn('bank_name', 'text')
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sqlIn('status', ['RECEIVED', 'DEPOSITED', 'CLEARED', 'BOUNCED', 'CANCELLED'])),
    )
    .execute();
  await s.createIndex('pcn_no').on('pcn').column('pcn_no').execute();
  await s.createIndex('pcn_customer').on('pcn').column('customer_code').execute();
  await s.createIndex('pcn_officer').on('pcn').columns(['sales_officer_id', 'pcn_date']).execute();

  await s
    .createTable('pcn_invoices')
    .addColumn('pcn_no', 'text', (c) => c.notNull())
    .addColumn('invoice_no', 'text', (c) => c.notNull().references('invoices.invoice_no'))
    .addColumn('adjusted_amount', t.money, (c) => c.notNull())
    .addPrimaryKeyConstraint('pcn_invoices_pk', ['pcn_no', 'invoice_no'])
    .execute();

  await s
    .createTable('pcn_debit_notes')
    .addColumn('debit_note_no', 'text', (c) => c.primaryKey())
    .addColumn('pcn_no', 'text', (c) => c.notNull())
    .addColumn('note_date', t.date, (c) => c.notNull())
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
  await s.createIndex('pcn_debit_notes_pcn').on('pcn_debit_notes').column('pcn_no').execute();

  await s
    .createTable('activities')
    .addColumn('activity_no', 'text', (c) => c.primaryKey())
    .addColumn('activity_date', t.date, (c) => c.notNull())
    .addColumn('activity_type', 'text', (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sqlIn('status', ['PENDING', 'APPROVED', 'REJECTED'])))
    .addColumn('decided_by', 'text', (c) => c.references('users.id'))
    .addColumn('decided_at', t.timestamp)
    .addColumn('remarks', 'text')
    .execute();
  await s.createIndex('activities_officer').on('activities').columns(['sales_officer_id', 'activity_date']).execute();
  await s.createIndex('activities_status').on('activities').column('status').execute();

  await s
    .createTable('enquiries')
    .addColumn('enquiry_no', 'text', (c) => c.primaryKey())
    .addColumn('enquiry_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('activity_no', 'text', (c) => c.references('activities.activity_no'))
    .addColumn('order_to_customer', 'text', (c) => c.references('customers.code'))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await s
    .createTable('complaints')
    .addColumn('complaint_no', 'text', (c) => c.primaryKey())
    .addColumn('complaint_date', t.date, (c) => c.notNull())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sqlIn('status', ['OPEN', 'RESOLVED'])))
    .execute();
  await s.createIndex('complaints_officer').on('complaints').columns(['sales_officer_id', 'complaint_date']).execute();

  await s
    .createTable('warranty_requests')
    .addColumn('request_no', 'text', (c) => c.primaryKey())
    .addColumn('client_request_id', 'text', (c) => c.unique())
    .addColumn('customer_code', 'text', (c) => c.notNull().references('customers.code'))
    .addColumn('sales_officer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('product_code', 'text', (c) => c.notNull().references('products.code'))
    .addColumn('serial_no', 'text', (c) => c.notNull())
    .addColumn('invoice_no', 'text', (c) => c.references('invoices.invoice_no'))
    .addColumn('purchase_date', t.date)
    .addColumn('complaint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sqlIn('status', ['SUBMITTED', 'DISPATCHED', 'RECEIVED', 'APPROVED', 'REJECTED', 'CLOSED'])),
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
  await s
    .createIndex('warranty_requests_officer')
    .on('warranty_requests')
    .columns(['sales_officer_id', 'change_seq'])
    .execute();

  await s
    .createTable('warranty_files')
    .addColumn('file_id', 'text', (c) => c.primaryKey())
    .addColumn('request_no', 'text', (c) => c.notNull().references('warranty_requests.request_no'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', t.binary, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('warranty_files_request_sha256', ['request_no', 'sha256'])
    .execute();

  await s
    .createTable('counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('counters' as never)
    .values([
      { name: 'warranty_request_no', value: 0 },
      { name: 'warranty_change_seq', value: 0 },
      { name: 'warranty_file_id', value: 0 },
    ] as never)
    .execute();
}

/** A CHECK (column IN (...)) expression; the values are constants of this file, never input. */
function sqlIn(column: string, values: readonly string[]) {
  return sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);
}
