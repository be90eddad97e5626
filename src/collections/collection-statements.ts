/**
 * getCollectionStatements (domain.md): the receipts of a customer, an officer (the receipt's officer)
 * and a date range. Rows: ReceiptNo, ReceiptDate, CustomerCode, CustomerName, PaymentMethod,
 * Reference, Amount; Totals: Count, Amount. Default order ReceiptDate ASC, then ReceiptNo.
 * With an authenticated user: receipts of the customers within their scope only; a SalesOfficer or
 * FromCustomer outside it is FORBIDDEN (principal-scope.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/money';
import type { Direction, Range } from '../operations/parse';
import type { OperationResult } from '../operations/types';
import { storedCustomerCode, storedUserId } from '../operations/master-codes';
import { receipts, type ReceiptField, type ReceiptRecord } from './repository';
import { assertCustomerInScope, assertOfficerInScope, type OfficerBound } from '../users/principal-scope';

export interface CollectionStatementQuery {
  salesOfficer?: string;
  /** FromCustomer: exactly one customer (the contract has no ToCustomer here). */
  customer?: string;
  dates: Range<string>;
  sortBy: ReceiptField;
  direction: Direction;
  /** The authenticated user's bound; undefined = none. */
  allowed?: OfficerBound;
}

export async function collectionStatements(db: Kysely<Database>, q: CollectionStatementQuery): Promise<OperationResult> {
  const officerId = q.salesOfficer === undefined ? undefined : await storedUserId(db, q.salesOfficer);
  const customerCode = q.customer === undefined ? undefined : await storedCustomerCode(db, q.customer);
  // A code that names nothing is a read that finds nothing.
  const unknown = (q.salesOfficer !== undefined && officerId === undefined) || (q.customer !== undefined && customerCode === undefined);
  if (officerId !== undefined) assertOfficerInScope(q.allowed, officerId, 'SalesOfficer');
  if (customerCode !== undefined) await assertCustomerInScope(db, q.allowed, customerCode, 'FromCustomer');
  const filter = { officerId, customerCode, fromDate: q.dates.from, toDate: q.dates.to, customerOfficers: q.allowed };
  const records = unknown ? [] : await receipts(db, filter, q.sortBy, q.direction);
  return { data: records.map(toRow), totals: totalsOf(records) };
}

function toRow(r: ReceiptRecord) {
  return {
    ReceiptNo: r.receipt_no,
    ReceiptDate: r.receipt_date,
    CustomerCode: r.customer_code,
    CustomerName: r.customer_name,
    PaymentMethod: r.payment_method,
    Reference: r.reference,
    Amount: amount(r.amount),
  };
}

/** Summed in minor units, converted once, so the total is exactly the sum of the rows. */
function totalsOf(records: readonly ReceiptRecord[]): Record<string, number> {
  const minor = records.reduce((sum, r) => sum + Number(r.amount), 0);
  return { Count: records.length, Amount: amount(minor) };
}
