/**
 * CreateWarrantyRequest (docs/behaviour.md): a SUBMITTED request for a product of a customer, raised by the
 * customer's sales officer. ClientRequestId makes it idempotent: the same key again returns the first
 * request unchanged, however often and however concurrently it is sent.
 * With an authenticated user (principal-scope.ts) the SalesOfficer must be within their scope (an SO
 * raises requests only as themselves), and a ClientRequestId of a request outside it is FORBIDDEN
 * rather than answered with that request.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, invalid, notFound } from '../errors';
import { findUser } from '../users/hierarchy';
import { lockWarrantyWrites, nextValue, requestNumber } from './counters';
import { findCustomer, findInvoice, findProduct, findRequestByClientId, insertRequest, type WarrantyRequestRow } from './repository';
import { requestView, type WarrantyRequestView } from './request-view';
import { isUniqueViolation } from '../db/unique-violation';
import { assertOfficerInScope, officerAllowed, outsideScope, type OfficerBound } from '../users/principal-scope';

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

export interface CreateOutcome {
  request: WarrantyRequestView;
  /** True when ClientRequestId named an earlier request, which is returned unchanged. */
  replayed: boolean;
}

export async function createWarrantyRequest(db: Kysely<Database>, input: NewWarrantyRequest, now: Date, allowed?: OfficerBound): Promise<CreateOutcome> {
  try {
    return await db.transaction().execute((trx) => createInTransaction(trx, input, now, allowed));
  } catch (err) {
    // Every warranty writer holds the counter lock, so the check inside the transaction already sees
    // an earlier request with this key. This is the last line of defence should a row with the key
    // arrive by another path: the unique index refuses the second row, and the first one is the answer.
    if (input.clientRequestId !== undefined && isUniqueViolation(err)) {
      const winner = await findRequestByClientId(db, input.clientRequestId);
      if (winner) return replay(winner, allowed);
    }
    throw err;
  }
}

async function createInTransaction(trx: Transaction<Database>, input: NewWarrantyRequest, now: Date, allowed: OfficerBound): Promise<CreateOutcome> {
  await lockWarrantyWrites(trx);
  if (input.clientRequestId !== undefined) {
    // A retry is answered before the references are checked again: the first answer stands even if
    // the master data changed in between.
    const earlier = await findRequestByClientId(trx, input.clientRequestId);
    if (earlier) return replay(earlier, allowed);
  }
  const refs = await resolveReferences(trx, input, allowed);
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

/** The earlier request of a ClientRequestId, unless it lies outside the authenticated user's scope. */
function replay(earlier: WarrantyRequestRow, allowed: OfficerBound): CreateOutcome {
  if (!officerAllowed(allowed, earlier.sales_officer_id)) throw outsideScope('ClientRequestId', 'the request sent with this key');
  return { request: requestView(earlier), replayed: true };
}

interface References {
  customerCode: string;
  officerId: string;
  productCode: string;
  invoiceNo: string | null;
}

/** The stored spellings of the references, or the first one that fails (in the order of the fields). */
async function resolveReferences(db: Kysely<Database>, input: NewWarrantyRequest, allowed: OfficerBound): Promise<References> {
  const customer = await findCustomer(db, input.customerCode);
  if (!customer) throw notFound('CustomerCode', `CustomerCode: customer '${input.customerCode}' does not exist`);
  const officer = await findUser(db, input.salesOfficer);
  if (!officer) throw notFound('SalesOfficer', `SalesOfficer: user '${input.salesOfficer}' does not exist`);
  assertOfficerInScope(allowed, officer.id, 'SalesOfficer');
  if (!officer.active) throw new AppError('FORBIDDEN', `SalesOfficer: user ${officer.id} is not active`, 'SalesOfficer');
  if (customer.sales_officer_id !== officer.id) {
    throw new AppError('FORBIDDEN', `SalesOfficer: ${officer.id} is not the sales officer of customer ${customer.code}`, 'SalesOfficer');
  }
  const product = await findProduct(db, input.productCode);
  if (!product) throw notFound('ProductCode', `ProductCode: product '${input.productCode}' does not exist`);
  return { customerCode: customer.code, officerId: officer.id, productCode: product.code, invoiceNo: await resolveInvoice(db, input, customer.code) };
}

async function resolveInvoice(db: Kysely<Database>, input: NewWarrantyRequest, customerCode: string): Promise<string | null> {
  if (input.invoiceNo === undefined) return null;
  const invoice = await findInvoice(db, input.invoiceNo);
  if (!invoice) throw notFound('InvoiceNo', `InvoiceNo: invoice '${input.invoiceNo}' does not exist`);
  if (invoice.customer_code !== customerCode) {
    throw invalid('InvoiceNo', `invoice ${invoice.invoice_no} belongs to customer ${invoice.customer_code}, not ${customerCode}`);
  }
  return invoice.invoice_no;
}
