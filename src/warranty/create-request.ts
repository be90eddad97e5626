/**
 * CreateWarrantyRequest (docs/behaviour.md). ClientRequestId makes it idempotent per officer; outside
 * the user's scope a customer, officer or invoice is answered as one that does not exist.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, invalid, notFound } from '../errors';
import { findUser, type User } from '../users/hierarchy';
import { lockWarrantyWrites, nextValue, requestNumber } from './counters';
import { findCustomer, findInvoice, findProduct, findRequestByClientId, insertRequest, type WarrantyRequestRow } from './repository';
import { requestView } from './request-view';
import { isUniqueViolation } from '../db/unique-violation';
import { storedCustomerCode, storedProductCode } from '../operations/master-codes';
import { customerAllowed, officerAllowed, type OfficerBound } from '../users/principal-scope';

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
export async function createWarrantyRequest(db: Kysely<Database>, input: NewWarrantyRequest, now: Date, allowed?: OfficerBound) {
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

async function createInTransaction(trx: Transaction<Database>, input: NewWarrantyRequest, now: Date, allowed: OfficerBound) {
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
async function sameRequest(db: Kysely<Database>, earlier: WarrantyRequestRow, input: NewWarrantyRequest): Promise<boolean> {
  if (input.serialNo !== earlier.serial_no || input.complaint !== earlier.complaint || (input.purchaseDate ?? null) !== earlier.purchase_date) return false;
  const invoiceNo = input.invoiceNo === undefined ? null : ((await findInvoice(db, input.invoiceNo))?.invoice_no ?? input.invoiceNo);
  return invoiceNo === earlier.invoice_no
    && ((await storedCustomerCode(db, input.customerCode)) ?? input.customerCode) === earlier.customer_code
    && ((await storedProductCode(db, input.productCode)) ?? input.productCode) === earlier.product_code;
}

/** The SalesOfficer, looked up within the authenticated user's scope: outside it as if unknown. */
async function visibleOfficer(db: Kysely<Database>, salesOfficer: string, allowed: OfficerBound): Promise<User | undefined> {
  const officer = await findUser(db, salesOfficer);
  return officer !== undefined && officerAllowed(allowed, officer.id) ? officer : undefined;
}

/**
 * The stored spellings of the references, or the first one that fails (in the order of the fields).
 * `officer` is visibleOfficer()'s; a customer or invoice outside the bound is NOT_FOUND as well.
 */
async function resolveReferences(db: Kysely<Database>, input: NewWarrantyRequest, officer: User | undefined, allowed: OfficerBound) {
  const customer = await findCustomer(db, input.customerCode);
  if (!customer || !officerAllowed(allowed, customer.sales_officer_id)) {
    throw notFound('CustomerCode', `CustomerCode: customer '${input.customerCode}' does not exist`);
  }
  if (!officer) throw notFound('SalesOfficer', `SalesOfficer: user '${input.salesOfficer}' does not exist`);
  if (!officer.active) throw new AppError('FORBIDDEN', `SalesOfficer: user ${officer.id} is not active`, 'SalesOfficer');
  if (customer.sales_officer_id !== officer.id) {
    throw new AppError('FORBIDDEN', `SalesOfficer: ${officer.id} is not the sales officer of customer ${customer.code}`, 'SalesOfficer');
  }
  const product = await findProduct(db, input.productCode);
  if (!product) throw notFound('ProductCode', `ProductCode: product '${input.productCode}' does not exist`);
  return { customerCode: customer.code, officerId: officer.id, productCode: product.code, invoiceNo: await resolveInvoice(db, input, customer.code, allowed) };
}

async function resolveInvoice(db: Kysely<Database>, input: NewWarrantyRequest, customerCode: string, allowed: OfficerBound): Promise<string | null> {
  if (input.invoiceNo === undefined) return null;
  const invoice = await findInvoice(db, input.invoiceNo);
  // Invoice numbers run in sequence: naming the customer of one outside the scope would map them all.
  if (!invoice || (invoice.customer_code !== customerCode && !(await customerAllowed(db, allowed, invoice.customer_code)))) throw notFound('InvoiceNo', `InvoiceNo: invoice '${input.invoiceNo}' does not exist`);
  if (invoice.customer_code !== customerCode) {
    throw invalid('InvoiceNo', `invoice ${invoice.invoice_no} belongs to customer ${invoice.customer_code}, not ${customerCode}`);
  }
  return invoice.invoice_no;
}
