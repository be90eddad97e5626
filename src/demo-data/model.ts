/** The generator's in-memory picture of the company and of its documents. */
import type { ActivityStatus, ChequeStatus, PaymentMethod, PaymentType, Role, WarrantyStatus } from '../db/schema';
import type { Day } from './calendar';
import type { Customer, Product } from './masters';

/** A product and a customer are what masters.ts builds. */
export type { Customer, Product };

export interface Officer {
  id: string;
  username: string;
  name: string;
  role: Role;
  manager: Officer | null;
  zoneCode: string | null;
}

/** A document; its number is given when its month is written (batch.ts), so numbers follow dates. */
export interface Numbered {
  no: string;
  date: Day;
}

export interface OrderLine {
  lineNo: number;
  product: Product;
  quantity: number;
  value: number;
}

export interface Order extends Numbered {
  customer: Customer;
  profitCenter: string;
  status: 'OPEN' | 'CLOSED' | 'CANCELLED';
  lines: OrderLine[];
}

/** An invoice line has an order line's fields, and the order line it delivers, if any. */
export interface InvoiceLine extends OrderLine {
  orderLine: OrderLine | null;
}

export interface Invoice extends Numbered {
  customer: Customer;
  profitCenter: string;
  order: Order | null;
  lines: InvoiceLine[];
  amount: number;
}

export interface Receipt extends Numbered {
  customer: Customer;
  method: PaymentMethod;
  reference: string;
  amount: number;
}

export interface Cheque extends Numbered {
  pcn: Pcn;
  type: PaymentType;
  method: PaymentMethod;
  chequeNo: string | null;
  chequeDate: Day | null;
  bank: string | null;
  amount: number;
  status: ChequeStatus;
}

export interface Pcn extends Numbered {
  customer: Customer;
  cheques: Cheque[];
  invoices: { invoice: Invoice; adjusted: number }[];
}

export interface DebitNote extends Numbered {
  customer: Customer;
  pcn: Pcn;
  amount: number;
  reason: string;
}

export interface CreditNote extends Numbered {
  customer: Customer;
  amount: number;
}

export interface Activity extends Numbered {
  customer: Customer;
  type: string;
  description: string;
  status: ActivityStatus;
  decidedBy: Officer | null;
  decidedAt: string | null;
  remarks: string | null;
}

export interface Enquiry extends Numbered {
  customer: Customer;
  description: string;
  activity: Activity | null;
  orderTo: Customer | null;
  updatedAt: string;
}

export interface Complaint extends Numbered {
  customer: Customer;
  product: Product;
  description: string;
  status: 'OPEN' | 'RESOLVED';
}

export interface WarrantyRequest extends Numbered {
  clientRequestId: string | null;
  customer: Customer;
  product: Product;
  serialNo: string;
  invoice: Invoice | null;
  purchaseDate: Day | null;
  complaint: string;
  status: WarrantyStatus;
  transport: { transporter: string; lrNo: string; lrDate: Day; vehicleNo: string } | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  changeSeq: number;
}
