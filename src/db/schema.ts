/**
 * The database as TypeScript sees it, one schema for both engines (DDL in src/db/migrations). Money
 * in integer minor units, dates 'yyyy-MM-dd', timestamps ISO-8601 UTC, flags 0/1 on both engines.
 */
export type Role = 'ADMIN' | 'ZM' | 'AM' | 'SO';
export type PaymentMethod = 'CHEQUE' | 'DD' | 'NEFT' | 'RTGS' | 'UPI' | 'CASH';
export type PaymentType = 'PDC' | 'CURRENT' | 'ADVANCE';
export type ChequeStatus = 'RECEIVED' | 'DEPOSITED' | 'CLEARED' | 'BOUNCED' | 'CANCELLED';
export type ActivityStatus = 'PENDING' | 'APPROVED' | 'REJECTED';
export type WarrantyStatus = 'SUBMITTED' | 'DISPATCHED' | 'RECEIVED' | 'APPROVED' | 'REJECTED' | 'CLOSED';

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

/** What every master table but users begins with: its code and name. */
interface CodesAndNames {
  code: string;
  name: string;
}

export interface Database {
  zones: CodesAndNames;
  states: CodesAndNames & {
    zone_code: string;
  };
  profit_centers: CodesAndNames;
  product_categories: CodesAndNames;
  products: CodesAndNames & {
    category_code: string;
    unit_price: number;
  };
  users: {
    /** Employee code such as SO0042, AM0007, ZM0002, ADM001. */
    id: string;
    /** Unique, stored lower-case. */
    username: string;
    name: string;
    role: Role;
    manager_id: string | null;
    zone_code: string | null;
    active: number;
  };
  customers: CodesAndNames & {
    state_code: string;
    sales_officer_id: string;
    credit_limit: number;
    active: number;
  };
  customer_profit_centers: {
    customer_code: string;
    profit_center_code: string;
  };
  orders: {
    order_no: string;
    order_date: string;
    customer_code: string;
    sales_officer_id: string;
    profit_center_code: string;
    /** OPEN (nothing or part delivered), CLOSED (fully delivered), CANCELLED. */
    status: 'OPEN' | 'CLOSED' | 'CANCELLED';
  };
  order_lines: {
    order_no: string;
    line_no: number;
    product_code: string;
    category_code: string;
    quantity: number;
    value: number;
  };
  invoices: {
    invoice_no: string;
    invoice_date: string;
    customer_code: string;
    sales_officer_id: string;
    profit_center_code: string;
    /** The order the invoice delivers, when it delivers one. */
    order_no: string | null;
    /** Sum of the line values. */
    amount: number;
  };
  invoice_lines: {
    invoice_no: string;
    line_no: number;
    product_code: string;
    category_code: string;
    quantity: number;
    value: number;
    /** The order line this line delivers, if any. */
    order_no: string | null;
    order_line_no: number | null;
  };
  receipts: {
    receipt_no: string;
    receipt_date: string;
    customer_code: string;
    sales_officer_id: string;
    payment_method: PaymentMethod;
    reference: string;
    amount: number;
  };
  ledger_entries: {
    customer_code: string;
    entry_date: string;
    doc_type: 'INVOICE' | 'RECEIPT' | 'DEBIT_NOTE' | 'CREDIT_NOTE' | 'OPENING';
    doc_no: string;
    debit: number;
    credit: number;
  };
  /** One row per cheque (PDCID) collected on a payment collection note (PCNNO). */
  pcn: {
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
  };
  pcn_invoices: {
    pcn_no: string;
    invoice_no: string;
    adjusted_amount: number;
  };
  pcn_debit_notes: {
    debit_note_no: string;
    pcn_no: string;
    note_date: string;
    amount: number;
    reason: string;
  };
  enquiries: {
    enquiry_no: string;
    enquiry_date: string;
    customer_code: string;
    sales_officer_id: string;
    description: string;
    activity_no: string | null;
    /** The customer the enquiry turned into an order for. */
    order_to_customer: string | null;
    updated_at: string;
  };
  activities: {
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
  };
  complaints: {
    complaint_no: string;
    complaint_date: string;
    customer_code: string;
    sales_officer_id: string;
    product_code: string;
    description: string;
    status: 'OPEN' | 'RESOLVED';
  };
  warranty_requests: {
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
  };
  warranty_files: {
    /** 'WF' + seven digits from the counter 'warranty_file_id'. */
    file_id: string;
    request_no: string;
    file_name: string;
    content_type: string;
    size_bytes: number;
    sha256: string;
    content: Buffer;
    created_at: string;
  };
  /** Named sequences shared by every server process: UPDATE ... SET value = value + 1 RETURNING value. */
  counters: {
    name: string;
    value: number;
  };

  // ---- summary data (src/summaries, docs/summaries.md): derived from the rows above, never edited --
  sales_period_totals: PeriodKey & {
    invoice_count: number;
    /** Sums of the invoice lines' quantity and value. */
    quantity: number;
    value: number;
    /** Sum of the invoices' amount (the dashboard's sales). */
    amount: number;
  };
  sales_period_categories: PeriodKey & {
    category_code: string;
    quantity: number;
    value: number;
  };
  sales_period_category_sets: PeriodKey & {
    /** The distinct categories of an invoice's lines, sorted, as ',A,B,'. */
    category_set: string;
    invoice_count: number;
  };
  sales_category_sets: {
    category_set: string;
  };
  order_period_totals: PeriodKey & {
    ordered_quantity: number;
    ordered_value: number;
    delivered_quantity: number;
    delivered_value: number;
    /** Delivered counted per order line at most up to what it ordered. */
    capped_quantity: number;
    capped_value: number;
  };
  order_period_categories: Database['order_period_totals'] & {
    category_code: string;
  };
  order_delivery_events: {
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
  };
  open_order_balances: {
    order_no: string;
    order_date: string;
    customer_code: string;
    ordered_quantity: number;
    ordered_value: number;
    capped_quantity: number;
    capped_value: number;
  };
  open_order_deliveries: {
    order_no: string;
    delivery_date: string;
    customer_code: string;
    /** How much capped (delivered, per line at most what it ordered) grew on that day. */
    capped_quantity: number;
    capped_value: number;
  };
  ledger_month_balances: {
    month_start: string;
    customer_code: string;
    /** sum(debit - credit) of the customer's entries up to the end of the month. */
    closing_balance: number;
  };
  receipt_period_totals: Pick<PeriodKey, 'period_kind' | 'period_start' | 'customer_code'> & {
    amount: number;
  };
  summary_facts: {
    name: string;
    value: string;
  };
}

/** A table of the schema. */
export type TableName = keyof Database;

/** A user's row, as the principal of a request carries it. */
export type UsersTable = Database['users'];
