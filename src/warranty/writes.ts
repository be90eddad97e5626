/**
 * The warranty area's writes (docs/behaviour.md). CreateWarrantyRequest: ClientRequestId makes it idempotent per
 * officer; outside the user's scope a customer, officer or invoice is answered as one that does not exist.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database, WarrantyStatus } from '../db/schema';
import { isUniqueViolation } from '../db/unique-violation';
import { AppError, invalid, notFound } from '../errors';
import { storedCustomerCode, storedProductCode } from '../operations/master-codes';
import type { DomainSettings } from '../operations/types';
import { findUser, type User } from '../users/hierarchy';
import { customerAllowed, officerAllowed, type OfficerBound } from '../users/principal-scope';
import { fileId, lockWarrantyWrites, nextValue, requestNumber } from './counters';
import type { CheckedFile } from './file-content';
import {
  dispatchRequest,
  findCustomer,
  findInvoice,
  findProduct,
  findRequest,
  findRequestByClientId,
  insertFile,
  insertRequest,
  listFiles,
  touchRequest,
  unknownRequest,
  visibleRequest,
  fileView,
  requestView,
  type FileMetaRow,
  type TransportDetails,
  type WarrantyRequestRow,
} from './repository';

export interface NewWarrantyRequest {
  customerCode: string;
  salesOfficer: string;
  productCode: string;
  serialNo: string;
  complaint: string;
  invoiceNo?: string;
  /** yyyy-MM-dd, already checked not to be in the future. */
  purchaseDate?: string;
  clientRequestId?: string;
}

/** The request created, or `replayed`: the earlier, identical one ClientRequestId named, unchanged. */
export async function createWarrantyRequest(
  db: Kysely<Database>,
  input: NewWarrantyRequest,
  now: Date,
  allowed?: OfficerBound,
) {
  try {
    return await db.transaction().execute((trx) => createInTransaction(trx, input, now, allowed));
  } catch (err) {
    // Every warranty writer holds the counter lock, so the transaction's own check sees an earlier request
    // with this key. Should such a row arrive by another path, the unique index (officer, key) refuses the
    // second, and the first is compared with this request as in the transaction.
    if (input.clientRequestId !== undefined && isUniqueViolation(err)) {
      const officer = await visibleOfficer(db, input.salesOfficer, allowed);
      const winner = officer && (await findRequestByClientId(db, officer.id, input.clientRequestId));
      if (winner) return replay(db, winner, input);
    }
    throw err;
  }
}

async function createInTransaction(
  trx: Transaction<Database>,
  input: NewWarrantyRequest,
  now: Date,
  allowed: OfficerBound,
) {
  await lockWarrantyWrites(trx);
  const officer = await visibleOfficer(trx, input.salesOfficer, allowed);
  if (input.clientRequestId !== undefined && officer !== undefined) {
    // A retry is answered before the other references are checked again: the first answer stands
    // even if the master data changed in between.
    const earlier = await findRequestByClientId(trx, officer.id, input.clientRequestId);
    if (earlier) return replay(trx, earlier, input);
  }
  const refs = await resolveReferences(trx, input, officer, allowed);
  const requestNo = requestNumber(await nextValue(trx, 'warranty_request_no'));
  const changeSeq = await nextValue(trx, 'warranty_change_seq');
  const stamp = now.toISOString();
  const row: WarrantyRequestRow = {
    request_no: requestNo,
    client_request_id: input.clientRequestId ?? null,
    customer_code: refs.customerCode,
    sales_officer_id: refs.officerId,
    product_code: refs.productCode,
    serial_no: input.serialNo,
    invoice_no: refs.invoiceNo,
    purchase_date: input.purchaseDate ?? null,
    complaint: input.complaint,
    status: 'SUBMITTED',
    transporter: null,
    lr_no: null,
    lr_date: null,
    vehicle_no: null,
    created_at: stamp,
    updated_at: stamp,
    version: 1,
    change_seq: changeSeq,
  };
  await insertRequest(trx, row);
  return { request: requestView(row), replayed: false };
}

/** The earlier request of the officer's ClientRequestId when `input` is the same request, else CONFLICT. */
async function replay(db: Kysely<Database>, earlier: WarrantyRequestRow, input: NewWarrantyRequest) {
  if (!(await sameRequest(db, earlier, input))) {
    throw new AppError(
      'CONFLICT',
      `ClientRequestId: '${input.clientRequestId}' was sent before with another request (${earlier.request_no}); use a new key for a new request`,
      'ClientRequestId',
    );
  }
  return { request: requestView(earlier), replayed: true };
}

/**
 * Whether `input` asks for what `earlier` holds, each parameter normalised as the operation does: codes and
 * the invoice number under their stored spelling (else as typed), the rest as read. The row keeps every
 * parameter, so it is its own fingerprint, also for requests stored before keys were compared or imported.
 */
async function sameRequest(
  db: Kysely<Database>,
  earlier: WarrantyRequestRow,
  input: NewWarrantyRequest,
): Promise<boolean> {
  if (
    input.serialNo !== earlier.serial_no ||
    input.complaint !== earlier.complaint ||
    (input.purchaseDate ?? null) !== earlier.purchase_date
  )
    return false;
  const invoiceNo =
    input.invoiceNo === undefined ? null : ((await findInvoice(db, input.invoiceNo))?.invoice_no ?? input.invoiceNo);
  return (
    invoiceNo === earlier.invoice_no &&
    ((await storedCustomerCode(db, input.customerCode)) ?? input.customerCode) === earlier.customer_code &&
    ((await storedProductCode(db, input.productCode)) ?? input.productCode) === earlier.product_code
  );
}

/** The SalesOfficer, looked up within the authenticated user's scope: outside it as if unknown. */
async function visibleOfficer(
  db: Kysely<Database>,
  salesOfficer: string,
  allowed: OfficerBound,
): Promise<User | undefined> {
  const officer = await findUser(db, salesOfficer);
  return officer !== undefined && officerAllowed(allowed, officer.id) ? officer : undefined;
}

/**
 * The stored spellings of the references, or the first one that fails (in the order of the fields).
 * `officer` is visibleOfficer()'s; a customer or invoice outside the bound is NOT_FOUND as well.
 */
async function resolveReferences(
  db: Kysely<Database>,
  input: NewWarrantyRequest,
  officer: User | undefined,
  allowed: OfficerBound,
) {
  const customer = await findCustomer(db, input.customerCode);
  if (!customer || !officerAllowed(allowed, customer.sales_officer_id)) {
    throw notFound('CustomerCode', `CustomerCode: customer '${input.customerCode}' does not exist`);
  }
  if (!officer) throw notFound('SalesOfficer', `SalesOfficer: user '${input.salesOfficer}' does not exist`);
  if (!officer.active)
    throw new AppError('FORBIDDEN', `SalesOfficer: user ${officer.id} is not active`, 'SalesOfficer');
  if (customer.sales_officer_id !== officer.id) {
    throw new AppError(
      'FORBIDDEN',
      `SalesOfficer: ${officer.id} is not the sales officer of customer ${customer.code}`,
      'SalesOfficer',
    );
  }
  const product = await findProduct(db, input.productCode);
  if (!product) throw notFound('ProductCode', `ProductCode: product '${input.productCode}' does not exist`);
  return {
    customerCode: customer.code,
    officerId: officer.id,
    productCode: product.code,
    invoiceNo: await resolveInvoice(db, input, customer.code, allowed),
  };
}

async function resolveInvoice(
  db: Kysely<Database>,
  input: NewWarrantyRequest,
  customerCode: string,
  allowed: OfficerBound,
): Promise<string | null> {
  if (input.invoiceNo === undefined) return null;
  const invoice = await findInvoice(db, input.invoiceNo);
  // Invoice numbers run in sequence: naming the customer of one outside the scope would map them all.
  if (
    !invoice ||
    (invoice.customer_code !== customerCode && !(await customerAllowed(db, allowed, invoice.customer_code)))
  )
    throw notFound('InvoiceNo', `InvoiceNo: invoice '${input.invoiceNo}' does not exist`);
  if (invoice.customer_code !== customerCode) {
    throw invalid(
      'InvoiceNo',
      `invoice ${invoice.invoice_no} belongs to customer ${invoice.customer_code}, not ${customerCode}`,
    );
  }
  return invoice.invoice_no;
}

export interface TransportInput {
  requestNo: string;
  transporter: string;
  lrNo: string;
  lrDate?: string;
  vehicleNo?: string;
}

const MESSAGES = {
  dispatched: 'is DISPATCHED with the transport details.',
  corrected: 'has its transport details corrected.',
  unchanged: 'already has these transport details: nothing was changed.',
};

const OPEN_FOR_TRANSPORT: readonly WarrantyStatus[] = ['SUBMITTED', 'DISPATCHED'];

/**
 * UpdateWarrantyTransportDetails: the request as it stands after the call, and the call's Message. The details are
 * one set: a call replaces all four, so an optional detail left out is cleared.
 */
export async function updateTransportDetails(
  db: Kysely<Database>,
  input: TransportInput,
  now: Date,
  allowed?: OfficerBound,
) {
  return db.transaction().execute(async (trx) => {
    await lockWarrantyWrites(trx);
    const current = await visibleRequest(trx, input.requestNo, allowed);
    if (!OPEN_FOR_TRANSPORT.includes(current.status)) throw wrongState(current);
    const details: TransportDetails = {
      transporter: input.transporter,
      lr_no: input.lrNo,
      lr_date: input.lrDate ?? null,
      vehicle_no: input.vehicleNo ?? null,
    };
    const same =
      current.transporter === details.transporter &&
      current.lr_no === details.lr_no &&
      current.lr_date === details.lr_date &&
      current.vehicle_no === details.vehicle_no;
    if (current.status === 'DISPATCHED' && same) return answer(current, 'unchanged');
    const change = { changeSeq: await nextValue(trx, 'warranty_change_seq'), updatedAt: now.toISOString() };
    // The state is guarded in the UPDATE itself (and the version read above), so whatever happened since
    // the read, a request that has moved on is never dispatched again.
    if (!(await dispatchRequest(trx, current.request_no, current.version, details, change))) {
      throw await refusal(trx, current.request_no);
    }
    const updated = await findRequest(trx, current.request_no);
    return answer(updated!, current.status === 'SUBMITTED' ? 'dispatched' : 'corrected');
  });
}

function answer(row: WarrantyRequestRow, outcome: keyof typeof MESSAGES) {
  const request = requestView(row);
  return { data: request, message: `Warranty request ${request.RequestNo} ${MESSAGES[outcome]}` };
}

/** Why the guarded UPDATE changed nothing, read again after it. */
async function refusal(db: Kysely<Database>, requestNo: string): Promise<AppError> {
  const now = await findRequest(db, requestNo);
  if (!now) return unknownRequest(requestNo);
  if (!OPEN_FOR_TRANSPORT.includes(now.status)) return wrongState(now);
  return new AppError(
    'CONFLICT',
    `RequestNo: request ${requestNo} was changed at the same time; send the details again`,
    'RequestNo',
  );
}

function wrongState(row: WarrantyRequestRow): AppError {
  return new AppError(
    'INVALID_STATE',
    `RequestNo: warranty request ${row.request_no} is ${row.status}; transport details can be set only while it is SUBMITTED or DISPATCHED`,
    'RequestNo',
  );
}

type FileLimits = Pick<DomainSettings, 'maxFilesPerRequest' | 'maxRequestFilesBytes'>;

/**
 * WarrantyRequestFiles: stored in the database, so a request and its files commit together and every server node
 * sees them. New files give the request a new version and change_seq.
 */
export async function listRequestFiles(db: Kysely<Database>, requestNo: string, allowed?: OfficerBound) {
  await visibleRequest(db, requestNo, allowed);
  return (await listFiles(db, requestNo)).map(fileView);
}

export async function storeRequestFiles(
  db: Kysely<Database>,
  requestNo: string,
  files: readonly CheckedFile[],
  limits: FileLimits,
  now: Date,
  allowed?: OfficerBound,
) {
  return db.transaction().execute(async (trx) => {
    await lockWarrantyWrites(trx);
    await visibleRequest(trx, requestNo, allowed);
    const existing = await listFiles(trx, requestNo);
    const fresh = newContent(existing, files);
    checkLimits(requestNo, existing, fresh, limits);
    const stamp = now.toISOString();
    const stored = new Map(existing.map((row) => [row.sha256, row]));
    for (const file of fresh) {
      const row = {
        file_id: fileId(await nextValue(trx, 'warranty_file_id')),
        request_no: requestNo,
        file_name: file.fileName,
        content_type: file.contentType,
        size_bytes: file.sizeBytes,
        sha256: file.sha256,
        created_at: stamp,
      };
      await insertFile(trx, { ...row, content: file.content });
      stored.set(row.sha256, row);
    }
    if (fresh.length > 0)
      await touchRequest(trx, requestNo, { changeSeq: await nextValue(trx, 'warranty_change_seq'), updatedAt: stamp });
    return { files: files.map((file) => fileView(stored.get(file.sha256)!)), added: fresh.length };
  });
}

/** The files of this call whose content the request does not hold yet, each content once. */
function newContent(existing: readonly FileMetaRow[], files: readonly CheckedFile[]): CheckedFile[] {
  const seen = new Set(existing.map((row) => row.sha256));
  const fresh: CheckedFile[] = [];
  for (const file of files) {
    if (seen.has(file.sha256)) continue;
    seen.add(file.sha256);
    fresh.push(file);
  }
  return fresh;
}

/** The per-request limits (settings) count the files already stored plus the new ones. */
function checkLimits(
  requestNo: string,
  existing: readonly FileMetaRow[],
  fresh: readonly CheckedFile[],
  limits: FileLimits,
): void {
  const count = existing.length + fresh.length;
  if (count > limits.maxFilesPerRequest) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `Warranty request ${requestNo} would hold ${count} files (${existing.length} stored, ${fresh.length} new); the limit is ${limits.maxFilesPerRequest} files per request`,
    );
  }
  const bytes =
    existing.reduce((sum, row) => sum + Number(row.size_bytes), 0) +
    fresh.reduce((sum, file) => sum + file.sizeBytes, 0);
  if (bytes > limits.maxRequestFilesBytes) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `The files of warranty request ${requestNo} would take ${bytes} bytes; the limit is ${limits.maxRequestFilesBytes} bytes per request`,
    );
  }
}
