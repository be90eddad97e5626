/**
 * What getPCNList and getPCNDetails answer for stored cheques, spelled out from the stored values
 * (docs/behaviour.md): the oracle the PCN suites compare the operation's rows with.
 */
import type { Database } from '../../src/db/schema';

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
