/**
 * The database as TypeScript sees it, one schema for both engines (DDL in src/db/migrations). Money
 * in integer minor units, dates 'yyyy-MM-dd', timestamps ISO-8601 UTC, flags 0/1 on both engines.
 */
export type Role = 'ADMIN' | 'ZM' | 'AM' | 'SO';

export interface ZonesTable {
  code: string;
  name: string;
}

export interface StatesTable {
  code: string;
  name: string;
  zone_code: string;
}

export interface ProfitCentersTable {
  code: string;
  name: string;
}

export interface ProductCategoriesTable {
  code: string;
  name: string;
}

export interface ProductsTable {
  code: string;
  name: string;
  category_code: string;
  unit_price: number;
}

export interface UsersTable {
  /** Employee code such as SO0042, AM0007, ZM0002, ADM001. */
  id: string;
  /** Unique, stored lower-case. */
  username: string;
  name: string;
  role: Role;
  manager_id: string | null;
  zone_code: string | null;
  active: number;
}

export interface CustomersTable {
  code: string;
  name: string;
  state_code: string;
  sales_officer_id: string;
  credit_limit: number;
  active: number;
}

export interface CustomerProfitCentersTable {
  customer_code: string;
  profit_center_code: string;
}

export interface OrdersTable {
  order_no: string;
  order_date: string;
  customer_code: string;
  sales_officer_id: string;
  profit_center_code: string;
  /** OPEN (nothing or part delivered), CLOSED (fully delivered), CANCELLED. */
  status: 'OPEN' | 'CLOSED' | 'CANCELLED';
}

export interface OrderLinesTable {
  order_no: string;
  line_no: number;
  product_code: string;
  category_code: string;
  quantity: number;
  value: number;
}

export interface InvoicesTable {
  invoice_no: string;
  invoice_date: string;
  customer_code: string;
  sales_officer_id: string;
  profit_center_code: string;
  /** The order the invoice delivers, when it delivers one. */
  order_no: string | null;
  /** Sum of the line values. */
  amount: number;
}

export interface InvoiceLinesTable {
  invoice_no: string;
  line_no: number;
  product_code: string;
  category_code: string;
  quantity: number;
  value: number;
  /** The order line this line delivers, if any. */
  order_no: string | null;
  order_line_no: number | null;
}

export type PaymentMethod = 'CHEQUE' | 'DD' | 'NEFT' | 'RTGS' | 'UPI' | 'CASH';

export interface ReceiptsTable {
  receipt_no: string;
  receipt_date: string;
  customer_code: string;
  sales_officer_id: string;
  payment_method: PaymentMethod;
  reference: string;
  amount: number;
}

export type LedgerDocType = 'INVOICE' | 'RECEIPT' | 'DEBIT_NOTE' | 'CREDIT_NOTE' | 'OPENING';

export interface LedgerEntriesTable {
  customer_code: string;
  entry_date: string;
  doc_type: LedgerDocType;
  doc_no: string;
  debit: number;
  credit: number;
}

export type PaymentType = 'PDC' | 'CURRENT' | 'ADVANCE';
export type ChequeStatus = 'RECEIVED' | 'DEPOSITED' | 'CLEARED' | 'BOUNCED' | 'CANCELLED';

/** One row per cheque (PDCID) collected on a payment collection note (PCNNO). */
export interface PcnTable {
  pdc_id: string;
  pcn_no: string;
  pcn_date: string;
  customer_code: string;
  sales_officer_id: string;
  payment_type: PaymentType;
  payment_method: PaymentMethod;
  cheque_no: string | null;
  cheque_date: string | null;
  bank_name: string | null;
  amount: number;
  status: ChequeStatus;
}

export interface PcnInvoicesTable {
  pcn_no: string;
  invoice_no: string;
  adjusted_amount: number;
}

export interface PcnDebitNotesTable {
  debit_note_no: string;
  pcn_no: string;
  note_date: string;
  amount: number;
  reason: string;
}

export interface EnquiriesTable {
  enquiry_no: string;
  enquiry_date: string;
  customer_code: string;
  sales_officer_id: string;
  description: string;
  activity_no: string | null;
  /** The customer the enquiry turned into an order for. */
  order_to_customer: string | null;
  updated_at: string;
}

export type ActivityStatus = 'PENDING' | 'APPROVED' | 'REJECTED';

export interface ActivitiesTable {
  activity_no: string;
  activity_date: string;
  /** VISIT, DEMO, MEETING, COLLECTION, SERVICE. */
  activity_type: string;
  customer_code: string;
  sales_officer_id: string;
  description: string;
  status: ActivityStatus;
  decided_by: string | null;
  decided_at: string | null;
  remarks: string | null;
}

export interface ComplaintsTable {
  complaint_no: string;
  complaint_date: string;
  customer_code: string;
  sales_officer_id: string;
  product_code: string;
  description: string;
  status: 'OPEN' | 'RESOLVED';
}

export type WarrantyStatus = 'SUBMITTED' | 'DISPATCHED' | 'RECEIVED' | 'APPROVED' | 'REJECTED' | 'CLOSED';

export interface WarrantyRequestsTable {
  /** 'WR' + seven digits from the counter 'warranty_request_no'. */
  request_no: string;
  client_request_id: string | null;
  customer_code: string;
  sales_officer_id: string;
  product_code: string;
  serial_no: string;
  invoice_no: string | null;
  purchase_date: string | null;
  complaint: string;
  status: WarrantyStatus;
  transporter: string | null;
  lr_no: string | null;
  lr_date: string | null;
  vehicle_no: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  /** Position of the row's latest change in the sync order: commit order (warranty/counters.ts). */
  change_seq: number;
}

export interface WarrantyFilesTable {
  /** 'WF' + seven digits from the counter 'warranty_file_id'. */
  file_id: string;
  request_no: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  content: Buffer;
  created_at: string;
}

/** Named sequences shared by every server process: UPDATE ... SET value = value + 1 RETURNING value. */
export interface CountersTable {
  name: string;
  value: number;
}

// ---- summary data (src/summaries, docs/summaries.md): derived from the rows above, never edited --

/** D: one day, M: a calendar month, Y: a calendar year; period_start is its first day. */
export type PeriodKind = 'D' | 'M' | 'Y';

interface PeriodKey {
  period_kind: PeriodKind;
  period_start: string;
  customer_code: string;
  profit_center_code: string;
  /** The document's officer (invoice or order), not the customer's. */
  sales_officer_id: string;
}

export interface SalesPeriodTotalsTable extends PeriodKey {
  invoice_count: number;
  /** Sums of the invoice lines' quantity and value. */
  quantity: number;
  value: number;
  /** Sum of the invoices' amount (the dashboard's sales). */
  amount: number;
}

export interface SalesPeriodCategoriesTable extends PeriodKey {
  category_code: string;
  quantity: number;
  value: number;
}

export interface SalesPeriodCategorySetsTable extends PeriodKey {
  /** The distinct categories of an invoice's lines, sorted, as ',A,B,'. */
  category_set: string;
  invoice_count: number;
}

export interface SalesCategorySetsTable {
  category_set: string;
}

export interface OrderPeriodTotalsTable extends PeriodKey {
  ordered_quantity: number;
  ordered_value: number;
  delivered_quantity: number;
  delivered_value: number;
  /** Delivered counted per order line at most up to what it ordered. */
  capped_quantity: number;
  capped_value: number;
}

export interface OrderPeriodCategoriesTable extends OrderPeriodTotalsTable {
  category_code: string;
}

export interface OrderDeliveryEventsTable {
  order_date: string;
  delivery_date: string;
  customer_code: string;
  profit_center_code: string;
  sales_officer_id: string;
  category_code: string;
  delivered_quantity: number;
  delivered_value: number;
  capped_quantity: number;
  capped_value: number;
}

export interface OpenOrderBalancesTable {
  order_no: string;
  order_date: string;
  customer_code: string;
  ordered_quantity: number;
  ordered_value: number;
  capped_quantity: number;
  capped_value: number;
}

export interface OpenOrderDeliveriesTable {
  order_no: string;
  delivery_date: string;
  customer_code: string;
  /** How much capped (delivered, per line at most what it ordered) grew on that day. */
  capped_quantity: number;
  capped_value: number;
}

export interface LedgerMonthBalancesTable {
  month_start: string;
  customer_code: string;
  /** sum(debit - credit) of the customer's entries up to the end of the month. */
  closing_balance: number;
}

export interface ReceiptPeriodTotalsTable {
  period_kind: PeriodKind;
  period_start: string;
  customer_code: string;
  amount: number;
}

export interface SummaryFactsTable {
  name: string;
  value: string;
}

export interface Database {
  zones: ZonesTable;
  states: StatesTable;
  profit_centers: ProfitCentersTable;
  product_categories: ProductCategoriesTable;
  products: ProductsTable;
  users: UsersTable;
  customers: CustomersTable;
  customer_profit_centers: CustomerProfitCentersTable;
  orders: OrdersTable;
  order_lines: OrderLinesTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  receipts: ReceiptsTable;
  ledger_entries: LedgerEntriesTable;
  pcn: PcnTable;
  pcn_invoices: PcnInvoicesTable;
  pcn_debit_notes: PcnDebitNotesTable;
  enquiries: EnquiriesTable;
  activities: ActivitiesTable;
  complaints: ComplaintsTable;
  warranty_requests: WarrantyRequestsTable;
  warranty_files: WarrantyFilesTable;
  counters: CountersTable;
  sales_period_totals: SalesPeriodTotalsTable;
  sales_period_categories: SalesPeriodCategoriesTable;
  sales_period_category_sets: SalesPeriodCategorySetsTable;
  sales_category_sets: SalesCategorySetsTable;
  order_period_totals: OrderPeriodTotalsTable;
  order_period_categories: OrderPeriodCategoriesTable;
  order_delivery_events: OrderDeliveryEventsTable;
  open_order_balances: OpenOrderBalancesTable;
  open_order_deliveries: OpenOrderDeliveriesTable;
  ledger_month_balances: LedgerMonthBalancesTable;
  receipt_period_totals: ReceiptPeriodTotalsTable;
  summary_facts: SummaryFactsTable;
}

/** A table of the schema. */
export type TableName = keyof Database;
