/**
 * The PCN suites' cheques, on the master data (fixture.ts), and what getPCNList and getPCNDetails
 * answer for stored cheques, spelled out from the stored values (docs/behaviour.md): the oracle the
 * PCN suites compare the operation's rows with.
 */
import type { Database } from '../../src/db/schema';

// PCN001 carries two cheques; PDC003 and PDC005 share a date (the PDCID breaks the tie, descending).
const PDC001: Database['pcn'] = {
  pdc_id: 'PDC001',
  pcn_no: 'PCN001',
  pcn_date: '2026-03-01',
  customer_code: 'C001',
  sales_officer_id: 'SO01',
  payment_type: 'PDC',
  payment_method: 'CHEQUE',
  cheque_no: 'CHQ111',
  cheque_date: '2026-03-15',
  bank_name: 'HDFC Bank',
  amount: 400000,
  status: 'RECEIVED',
};

export const CHEQUES: Database['pcn'][] = [
  PDC001,
  // The same PCN's second cheque.
  {
    ...PDC001,
    pdc_id: 'PDC002',
    cheque_no: 'CHQ112',
    cheque_date: '2026-04-15',
    amount: 350000,
    status: 'DEPOSITED',
  },
  {
    pdc_id: 'PDC003',
    pcn_no: 'PCN002',
    pcn_date: '2026-03-05',
    customer_code: 'C004',
    sales_officer_id: 'SO03',
    payment_type: 'CURRENT',
    payment_method: 'NEFT',
    cheque_no: null,
    cheque_date: null,
    bank_name: null,
    amount: 800000,
    status: 'CLEARED',
  },
  {
    pdc_id: 'PDC004',
    pcn_no: 'PCN003',
    pcn_date: '2026-02-20',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    payment_type: 'ADVANCE',
    payment_method: 'UPI',
    cheque_no: null,
    cheque_date: null,
    bank_name: null,
    amount: 100000,
    status: 'RECEIVED',
  },
  {
    pdc_id: 'PDC005',
    pcn_no: 'PCN004',
    pcn_date: '2026-03-05',
    customer_code: 'C002',
    sales_officer_id: 'SO01',
    payment_type: 'PDC',
    payment_method: 'DD',
    cheque_no: 'DD9',
    cheque_date: '2026-03-06',
    bank_name: 'SBI',
    amount: 120055,
    status: 'BOUNCED',
  },
];

/** A cheque as the list and the details show it; `customerName` is the stored name of its customer. */
export function expectedCheque(c: Database['pcn'], customerName: string) {
  return {
    PDCID: c.pdc_id,
    PCNNO: c.pcn_no,
    PCNDate: c.pcn_date,
    CustomerCode: c.customer_code,
    CustomerName: customerName,
    PaymentType: c.payment_type,
    PaymentMethod: c.payment_method,
    ChequeNo: c.cheque_no,
    ChequeDate: c.cheque_date,
    BankName: c.bank_name,
    Amount: c.amount / 100,
    Status: c.status,
  };
}

/** The getPCNList rows of the cheques `keep` selects, newest first (date, then PDCID, descending). */
export function expectedChequeList(
  cheques: readonly Database['pcn'][],
  customerName: (code: string) => string,
  keep: (c: Database['pcn']) => boolean,
) {
  return cheques
    .filter(keep)
    .sort((a, b) => (a.pcn_date !== b.pcn_date ? (a.pcn_date < b.pcn_date ? 1 : -1) : a.pdc_id < b.pdc_id ? 1 : -1))
    .map((c) => expectedCheque(c, customerName(c.customer_code)));
}
