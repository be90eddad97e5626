/**
 * The warranty area's queries, and its requests and files as the app receives them (docs/behaviour.md, field names in
 * PascalCase). Invoice numbers are looked up under their as-typed/upper/lower spellings, so the index serves them.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema';
import { notFound, type AppError } from '../errors';
import { documentNumberSpellings, storedCustomerCode, storedProductCode } from '../operations/master-codes';
import { field, nullable, recordType, type FieldType } from '../operations/results';
import { assertVisible, type OfficerBound } from '../users/principal-scope';

export type WarrantyRequestRow = Selectable<Database['warranty_requests']>;
export type FileMetaRow = Omit<Selectable<Database['warranty_files']>, 'content'>;
export type SyncRow = WarrantyRequestRow & { file_count: number };

const FILE_META_COLUMNS = [
  'file_id',
  'request_no',
  'file_name',
  'content_type',
  'size_bytes',
  'sha256',
  'created_at',
] as const;

// ---- master data ---------------------------------------------------------------------------------

/** A customer by its code, typed in any case (master-codes.ts: the exact spelling preferred). */
export async function findCustomer(
  db: Kysely<Database>,
  code: string,
): Promise<Selectable<Database['customers']> | undefined> {
  const stored = await storedCustomerCode(db, code);
  return stored === undefined
    ? undefined
    : db.selectFrom('customers').selectAll().where('code', '=', stored).executeTakeFirst();
}

/** A product by its code, typed in any case (master-codes.ts: the exact spelling preferred). */
export async function findProduct(
  db: Kysely<Database>,
  code: string,
): Promise<Selectable<Database['products']> | undefined> {
  const stored = await storedProductCode(db, code);
  return stored === undefined
    ? undefined
    : db.selectFrom('products').selectAll().where('code', '=', stored).executeTakeFirst();
}

/** An invoice by its number under its usual spellings (documentNumberSpellings), the exact one preferred. */
export async function findInvoice(
  db: Kysely<Database>,
  invoiceNo: string,
): Promise<Pick<Database['invoices'], 'invoice_no' | 'customer_code' | 'invoice_date'> | undefined> {
  const candidates = documentNumberSpellings(invoiceNo);
  return db
    .selectFrom('invoices')
    .select(['invoice_no', 'customer_code', 'invoice_date'])
    .where('invoice_no', 'in', candidates)
    .orderBy(sql`case when invoice_no = ${invoiceNo} then 0 else 1 end`)
    .executeTakeFirst();
}

// ---- warranty requests -----------------------------------------------------------------------------

export function findRequest(db: Kysely<Database>, requestNo: string): Promise<WarrantyRequestRow | undefined> {
  return db.selectFrom('warranty_requests').selectAll().where('request_no', '=', requestNo).executeTakeFirst();
}

/** The refusal of a RequestNo findRequest does not find (or that lies outside the caller's scope). */
export function unknownRequest(requestNo: string): AppError {
  return notFound('RequestNo', `RequestNo: warranty request '${requestNo}' does not exist`);
}

/** The request, when it exists within the authenticated user's scope (NOT_FOUND otherwise, whichever it is). */
export async function visibleRequest(
  db: Kysely<Database>,
  requestNo: string,
  allowed: OfficerBound | undefined,
): Promise<WarrantyRequestRow> {
  const request = await findRequest(db, requestNo);
  if (!request) throw unknownRequest(requestNo);
  assertVisible(allowed, request.sales_officer_id, () => unknownRequest(requestNo));
  return request;
}

/** The request an officer's ClientRequestId names (the key is unique per officer). */
export function findRequestByClientId(
  db: Kysely<Database>,
  officerId: string,
  clientRequestId: string,
): Promise<WarrantyRequestRow | undefined> {
  return db
    .selectFrom('warranty_requests')
    .selectAll()
    .where('sales_officer_id', '=', officerId)
    .where('client_request_id', '=', clientRequestId)
    .executeTakeFirst();
}

export async function insertRequest(db: Kysely<Database>, row: WarrantyRequestRow): Promise<void> {
  await db.insertInto('warranty_requests').values(row).execute();
}

/** The four transport columns, set together. */
export type TransportDetails = Pick<WarrantyRequestRow, 'transporter' | 'lr_no' | 'lr_date' | 'vehicle_no'>;

export interface RowChange {
  changeSeq: number;
  updatedAt: string;
}

/**
 * Sets the transport details and DISPATCHED, guarded in SQL: only a SUBMITTED or DISPATCHED request
 * at the version the caller read is changed. Returns whether a row was changed.
 */
export async function dispatchRequest(
  db: Kysely<Database>,
  requestNo: string,
  readVersion: number,
  details: TransportDetails,
  change: RowChange,
): Promise<boolean> {
  const result = await db
    .updateTable('warranty_requests')
    .set((eb) => ({
      ...details,
      status: 'DISPATCHED' as const,
      version: eb('version', '+', 1),
      change_seq: change.changeSeq,
      updated_at: change.updatedAt,
    }))
    .where('request_no', '=', requestNo)
    .where('status', 'in', ['SUBMITTED', 'DISPATCHED'])
    .where('version', '=', readVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records that something belonging to the request changed (its files): new version and change_seq. */
export async function touchRequest(db: Kysely<Database>, requestNo: string, change: RowChange): Promise<void> {
  await db
    .updateTable('warranty_requests')
    .set((eb) => ({ version: eb('version', '+', 1), change_seq: change.changeSeq, updated_at: change.updatedAt }))
    .where('request_no', '=', requestNo)
    .execute();
}

// ---- files -------------------------------------------------------------------------------------------

/** The request's files without their content, oldest first. */
export function listFiles(db: Kysely<Database>, requestNo: string): Promise<FileMetaRow[]> {
  return db
    .selectFrom('warranty_files')
    .select(FILE_META_COLUMNS)
    .where('request_no', '=', requestNo)
    .orderBy('file_id')
    .execute();
}

export async function insertFile(db: Kysely<Database>, row: Selectable<Database['warranty_files']>): Promise<void> {
  await db.insertInto('warranty_files').values(row).execute();
}

// ---- sync --------------------------------------------------------------------------------------------

/**
 * Requests whose latest change comes after `since`, in change order, with their number of files;
 * only those of `officerIds` when given.
 */
export async function changedSince(
  db: Kysely<Database>,
  since: number,
  officerIds: readonly string[] | undefined,
  limit: number,
): Promise<SyncRow[]> {
  let query = db
    .selectFrom('warranty_requests as r')
    .selectAll('r')
    .select((eb) =>
      eb
        .selectFrom('warranty_files as f')
        .select((f) => f.fn.countAll<number>().as('n'))
        .whereRef('f.request_no', '=', 'r.request_no')
        .as('file_count'),
    )
    .where('r.change_seq', '>', since);
  if (officerIds !== undefined) query = query.where('r.sales_officer_id', 'in', officerIds);
  const rows = await query.orderBy('r.change_seq').limit(limit).execute();
  return rows.map((row) => Object.assign(row, { file_count: Number(row.file_count ?? 0) }));
}

// ---- as the app receives them ---------------------------------------------------------------------

export type WarrantyRequestView = ReturnType<typeof requestView>;

const REQUEST_FIELDS = {
  RequestNo: field.string,
  ClientRequestId: nullable(field.string),
  CustomerCode: field.string,
  SalesOfficer: field.string,
  ProductCode: field.string,
  SerialNo: field.string,
  InvoiceNo: nullable(field.string),
  PurchaseDate: nullable(field.date),
  Complaint: field.string,
  Status: field.string,
  Transporter: nullable(field.string),
  LRNo: nullable(field.string),
  LRDate: nullable(field.date),
  VehicleNo: nullable(field.string),
  CreatedAt: field.dateTime,
  UpdatedAt: field.dateTime,
  Version: field.integer,
} satisfies Record<keyof WarrantyRequestView, FieldType>;

/** What the writes answer (docs/results.md). */
export const WARRANTY_REQUEST_TYPE = recordType('WarrantyRequest', REQUEST_FIELDS);
/** A request as the sync lists it: with the number of its files. */
export const SYNCED_WARRANTY_REQUEST_TYPE = recordType('SyncedWarrantyRequest', {
  ...REQUEST_FIELDS,
  FileCount: field.integer,
});

export type WarrantyFileView = ReturnType<typeof fileView>;

export const WARRANTY_FILE_TYPE = recordType('WarrantyFile', {
  FileId: field.string,
  FileName: field.string,
  ContentType: field.string,
  SizeBytes: field.integer,
  Sha256: field.string,
  CreatedAt: field.dateTime,
} satisfies Record<keyof WarrantyFileView, FieldType>);

export function requestView(row: WarrantyRequestRow) {
  return {
    RequestNo: row.request_no,
    ClientRequestId: row.client_request_id,
    CustomerCode: row.customer_code,
    SalesOfficer: row.sales_officer_id,
    ProductCode: row.product_code,
    SerialNo: row.serial_no,
    InvoiceNo: row.invoice_no,
    PurchaseDate: row.purchase_date,
    Complaint: row.complaint,
    Status: row.status,
    Transporter: row.transporter,
    LRNo: row.lr_no,
    LRDate: row.lr_date,
    VehicleNo: row.vehicle_no,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Version: Number(row.version),
  };
}

export function syncView(row: SyncRow) {
  return Object.assign(requestView(row), { FileCount: row.file_count });
}

export function fileView(row: FileMetaRow) {
  return {
    FileId: row.file_id,
    FileName: row.file_name,
    ContentType: row.content_type,
    SizeBytes: Number(row.size_bytes),
    Sha256: row.sha256,
    CreatedAt: row.created_at,
  };
}
