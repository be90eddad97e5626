/**
 * A numbered month of documents as table rows, parents before children (foreign keys are checked as
 * rows arrive), and the writer that inserts them. Every invoice, receipt, debit note and credit note posts one ledger entry.
 */
import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Database, TableName } from '../db/schema';
import { formatDay, type Day } from './calendar';
import type { MonthBatch } from './batch';
import type { WarrantyRequest } from './model';
import { DEMO_INSERT_PARAMETERS } from '../tunables';

export async function writeBatch(writer: RowWriter, batch: MonthBatch, start: Day): Promise<void> {
  await writer.insert(
    'orders',
    batch.orders.map((o) => ({
      order_no: o.no,
      order_date: formatDay(o.date),
      customer_code: o.customer.code,
      sales_officer_id: o.customer.officer.id,
      profit_center_code: o.profitCenter,
      status: o.status,
    })),
  );
  await writer.insert(
    'order_lines',
    batch.orders.flatMap((o) =>
      o.lines.map((l) => ({
        order_no: o.no,
        line_no: l.lineNo,
        product_code: l.product.code,
        category_code: l.product.categoryCode,
        quantity: l.quantity,
        value: l.value,
      })),
    ),
  );
  await writer.insert(
    'invoices',
    batch.invoices.map((i) => ({
      invoice_no: i.no,
      invoice_date: formatDay(i.date),
      customer_code: i.customer.code,
      sales_officer_id: i.customer.officer.id,
      profit_center_code: i.profitCenter,
      order_no: i.order?.no ?? null,
      amount: i.amount,
    })),
  );
  await writer.insert(
    'invoice_lines',
    batch.invoices.flatMap((i) =>
      i.lines.map((l) => ({
        invoice_no: i.no,
        line_no: l.lineNo,
        product_code: l.product.code,
        category_code: l.product.categoryCode,
        quantity: l.quantity,
        value: l.value,
        order_no: l.orderLine ? i.order!.no : null,
        order_line_no: l.orderLine?.lineNo ?? null,
      })),
    ),
  );
  await writer.insert(
    'receipts',
    batch.receipts.map((r) => ({
      receipt_no: r.no,
      receipt_date: formatDay(r.date),
      customer_code: r.customer.code,
      sales_officer_id: r.customer.officer.id,
      payment_method: r.method,
      reference: r.reference,
      amount: r.amount,
    })),
  );
  await writer.insert(
    'pcn',
    batch.pcns.flatMap((p) =>
      p.cheques.map((c) => ({
        pdc_id: c.no,
        pcn_no: p.no,
        pcn_date: formatDay(p.date),
        customer_code: p.customer.code,
        sales_officer_id: p.customer.officer.id,
        payment_type: c.type,
        payment_method: c.method,
        cheque_no: c.chequeNo,
        cheque_date: c.chequeDate === null ? null : formatDay(c.chequeDate),
        bank_name: c.bank,
        amount: c.amount,
        status: c.status,
      })),
    ),
  );
  await writer.insert(
    'pcn_invoices',
    batch.pcns.flatMap((p) =>
      p.invoices.map((a) => ({
        pcn_no: p.no,
        invoice_no: a.invoice.no,
        adjusted_amount: a.adjusted,
      })),
    ),
  );
  await writer.insert(
    'pcn_debit_notes',
    batch.debitNotes.map((d) => ({
      debit_note_no: d.no,
      pcn_no: d.pcn.no,
      note_date: formatDay(d.date),
      amount: d.amount,
      reason: d.reason,
    })),
  );
  await writer.insert('ledger_entries', ledgerRows(batch, start));
  await writer.insert(
    'activities',
    batch.activities.map((a) => ({
      activity_no: a.no,
      activity_date: formatDay(a.date),
      activity_type: a.type,
      customer_code: a.customer.code,
      sales_officer_id: a.customer.officer.id,
      description: a.description,
      status: a.status,
      decided_by: a.decidedBy?.id ?? null,
      decided_at: a.decidedAt,
      remarks: a.remarks,
    })),
  );
  await writer.insert(
    'enquiries',
    batch.enquiries.map((e) => ({
      enquiry_no: e.no,
      enquiry_date: formatDay(e.date),
      customer_code: e.customer.code,
      sales_officer_id: e.customer.officer.id,
      description: e.description,
      activity_no: e.activity?.no ?? null,
      order_to_customer: e.orderTo?.code ?? null,
      updated_at: e.updatedAt,
    })),
  );
  await writer.insert(
    'complaints',
    batch.complaints.map((c) => ({
      complaint_no: c.no,
      complaint_date: formatDay(c.date),
      customer_code: c.customer.code,
      sales_officer_id: c.customer.officer.id,
      product_code: c.product.code,
      description: c.description,
      status: c.status,
    })),
  );
}

function ledgerRows(batch: MonthBatch, start: Day): Database['ledger_entries'][] {
  const openingNo = `OB${formatDay(start).slice(0, 4)}`;
  return [
    ...batch.openings.map((c) => ({
      customer_code: c.code,
      entry_date: formatDay(start),
      doc_type: 'OPENING' as const,
      doc_no: openingNo,
      debit: Math.max(0, c.openingBalance),
      credit: Math.max(0, -c.openingBalance),
    })),
    ...batch.invoices.map((i) => entry(i.customer.code, i.date, 'INVOICE', i.no, i.amount, 0)),
    ...batch.receipts.map((r) => entry(r.customer.code, r.date, 'RECEIPT', r.no, 0, r.amount)),
    ...batch.debitNotes.map((d) => entry(d.customer.code, d.date, 'DEBIT_NOTE', d.no, d.amount, 0)),
    ...batch.creditNotes.map((c) => entry(c.customer.code, c.date, 'CREDIT_NOTE', c.no, 0, c.amount)),
  ];
}

function entry(
  customer: string,
  date: Day,
  docType: Database['ledger_entries']['doc_type'],
  docNo: string,
  debit: number,
  credit: number,
): Database['ledger_entries'] {
  return { customer_code: customer, entry_date: formatDay(date), doc_type: docType, doc_no: docNo, debit, credit };
}

export async function writeWarrantyRequests(writer: RowWriter, requests: WarrantyRequest[]): Promise<void> {
  await writer.insert(
    'warranty_requests',
    requests.map((r) => ({
      request_no: r.no,
      client_request_id: r.clientRequestId,
      customer_code: r.customer.code,
      sales_officer_id: r.customer.officer.id,
      product_code: r.product.code,
      serial_no: r.serialNo,
      invoice_no: r.invoice?.no ?? null,
      purchase_date: r.purchaseDate === null ? null : formatDay(r.purchaseDate),
      complaint: r.complaint,
      status: r.status,
      transporter: r.transport?.transporter ?? null,
      lr_no: r.transport?.lrNo ?? null,
      lr_date: r.transport ? formatDay(r.transport.lrDate) : null,
      vehicle_no: r.transport?.vehicleNo ?? null,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      version: r.version,
      change_seq: r.changeSeq,
    })),
  );
}

/**
 * Multi-row inserts in batches under the engines' bound-parameter limits (SQLite 32766, PostgreSQL
 * 65535), counting the rows per table. A statement's text is compiled once per table and batch size
 * and reused with new values: the query builder's work dominated hundreds of thousands of rows.
 */
export class RowWriter {
  readonly counts: Partial<Record<TableName, number>> = {};
  private readonly statements = new Map<string, string>();

  constructor(private readonly db: Kysely<Database>) {}

  async insert<T extends TableName>(table: T, rows: Insertable<Database[T]>[]): Promise<void> {
    this.counts[table] = (this.counts[table] ?? 0) + rows.length;
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]);
    const perStatement = Math.max(1, Math.floor(DEMO_INSERT_PARAMETERS / columns.length));
    for (let i = 0; i < rows.length; i += perStatement) {
      await this.insertBatch(table, columns, rows.slice(i, i + perStatement));
    }
  }

  private async insertBatch<T extends TableName>(
    table: T,
    columns: string[],
    rows: Insertable<Database[T]>[],
  ): Promise<void> {
    const parameters: unknown[] = [];
    for (const row of rows) for (const column of columns) parameters.push((row as Record<string, unknown>)[column]);
    const key = `${table}:${columns.join(',')}:${rows.length}`;
    let text = this.statements.get(key);
    if (text === undefined) {
      const compiled = this.db.insertInto(table).values(rows).compile();
      // Every row has the same columns in the same order, so the bound values line up row by row.
      if (compiled.parameters.length !== parameters.length)
        throw new Error(`insert into ${table}: rows differ in their columns`);
      text = compiled.sql;
      this.statements.set(key, text);
    }
    await this.db.executeQuery(CompiledQuery.raw(text, parameters));
  }
}
