/** Queries behind the collection reports (getCollectionStatements, getOpeningBalance). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Direction } from '../operations/parse';

export interface ReceiptFilter {
  /** Stored officer id (the receipt's officer). */
  officerId?: string;
  /** Stored customer code. */
  customerCode?: string;
  fromDate?: string;
  toDate?: string;
  /** Only customers owned by these officers (the authenticated user's scope); undefined = all. */
  customerOfficers?: readonly string[];
}

export const RECEIPT_FIELDS = ['ReceiptNo', 'ReceiptDate', 'CustomerCode', 'CustomerName', 'PaymentMethod', 'Reference', 'Amount'] as const;
export type ReceiptField = (typeof RECEIPT_FIELDS)[number];

/** SortBy whitelist: result field -> column. Input never reaches ORDER BY except through this map. */
const RECEIPT_SORT_COLUMNS = {
  ReceiptNo: 'receipts.receipt_no',
  ReceiptDate: 'receipts.receipt_date',
  CustomerCode: 'receipts.customer_code',
  CustomerName: 'customers.name',
  PaymentMethod: 'receipts.payment_method',
  Reference: 'receipts.reference',
  Amount: 'receipts.amount',
} as const satisfies Record<ReceiptField, string>;

export interface ReceiptRecord {
  receipt_no: string;
  receipt_date: string;
  customer_code: string;
  customer_name: string;
  payment_method: string;
  reference: string;
  amount: number;
}

/** Receipts with their customer, ordered by the chosen field and then the receipt number. */
export async function receipts(db: Kysely<Database>, filter: ReceiptFilter, sortBy: ReceiptField, direction: Direction): Promise<ReceiptRecord[]> {
  let query = db
    .selectFrom('receipts')
    .innerJoin('customers', 'customers.code', 'receipts.customer_code')
    .select([
      'receipts.receipt_no',
      'receipts.receipt_date',
      'receipts.customer_code',
      'customers.name as customer_name',
      'receipts.payment_method',
      'receipts.reference',
      'receipts.amount',
    ]);
  if (filter.officerId !== undefined) query = query.where('receipts.sales_officer_id', '=', filter.officerId);
  if (filter.customerCode !== undefined) query = query.where('receipts.customer_code', '=', filter.customerCode);
  if (filter.fromDate !== undefined) query = query.where('receipts.receipt_date', '>=', filter.fromDate);
  if (filter.toDate !== undefined) query = query.where('receipts.receipt_date', '<=', filter.toDate);
  if (filter.customerOfficers !== undefined) query = query.where('customers.sales_officer_id', 'in', filter.customerOfficers);
  return query.orderBy(RECEIPT_SORT_COLUMNS[sortBy], direction).orderBy('receipts.receipt_no', direction).execute();
}

/** The first of the customers named (upper-cased codes) that is owned by none of the officers. */
export async function firstCustomerOutside(db: Kysely<Database>, upperCodes: readonly string[], officers: readonly string[]): Promise<string | undefined> {
  if (upperCodes.length === 0) return undefined;
  const row = await db
    .selectFrom('customers')
    .select('code')
    .where((eb) => eb(eb.fn('upper', ['code']), 'in', upperCodes))
    .where('sales_officer_id', 'not in', officers)
    .orderBy('code')
    .executeTakeFirst();
  return row?.code;
}
