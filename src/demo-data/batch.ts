/**
 * The documents of one month, and their numbering: each kind in date order (ties in the order they
 * were made), so numbers read chronologically like a real back office's.
 */
import type {
  Activity,
  Complaint,
  CreditNote,
  Customer,
  DebitNote,
  Enquiry,
  Invoice,
  Numbered,
  Order,
  Pcn,
  Receipt,
} from './model';
import { pad } from './masters';

export class MonthBatch {
  /** Customers whose opening balance is posted with this batch (the first month). */
  openings: Customer[] = [];
  orders: Order[] = [];
  invoices: Invoice[] = [];
  receipts: Receipt[] = [];
  pcns: Pcn[] = [];
  debitNotes: DebitNote[] = [];
  creditNotes: CreditNote[] = [];
  activities: Activity[] = [];
  enquiries: Enquiry[] = [];
  complaints: Complaint[] = [];
}

/** Prefixes of the document numbers, each followed by seven digits (like 'WR' in the schema). */
const PREFIX = {
  order: 'ORD',
  invoice: 'INV',
  receipt: 'RCT',
  pcn: 'PCN',
  cheque: 'PDC',
  debitNote: 'DN',
  creditNote: 'CN',
  activity: 'ACT',
  enquiry: 'ENQ',
  complaint: 'CMP',
  warrantyRequest: 'WR',
  warrantyFile: 'WF',
} as const;

export type DocumentKind = keyof typeof PREFIX;

export class DocumentNumbers {
  private readonly last = new Map<DocumentKind, number>();

  next(kind: DocumentKind): string {
    const n = (this.last.get(kind) ?? 0) + 1;
    this.last.set(kind, n);
    return `${PREFIX[kind]}${pad(n, 7)}`;
  }

  count(kind: DocumentKind): number {
    return this.last.get(kind) ?? 0;
  }

  /** Numbers every document of the batch; cheques follow their collection notes. */
  numberBatch(batch: MonthBatch): void {
    this.numberAll('order', batch.orders);
    this.numberAll('invoice', batch.invoices);
    this.numberAll('receipt', batch.receipts);
    this.numberAll('pcn', batch.pcns);
    for (const pcn of batch.pcns) for (const cheque of pcn.cheques) cheque.no = this.next('cheque');
    this.numberAll('debitNote', batch.debitNotes);
    this.numberAll('creditNote', batch.creditNotes);
    this.numberAll('activity', batch.activities);
    this.numberAll('enquiry', batch.enquiries);
    this.numberAll('complaint', batch.complaints);
  }

  /** Sorts by date (Array.prototype.sort is stable) and numbers in that order. */
  numberAll<T extends Numbered>(kind: DocumentKind, docs: T[]): void {
    docs.sort((a, b) => a.date - b.date);
    for (const doc of docs) doc.no = this.next(kind);
  }
}
