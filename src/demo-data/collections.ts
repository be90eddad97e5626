/**
 * How invoices get paid: mostly by a receipt around the credit period; some by cheques on a payment
 * collection note (PCN), whose bounced cheques bring bank charges and a replacement; a few never.
 */
import { workingDayFrom, type Day } from './calendar';
import type { ChequeStatus, PaymentMethod, PaymentType } from '../db/schema';
import type { Cheque, Customer, Invoice, Pcn } from './model';
import { schedule, stateOf, type Simulation } from './simulation';
import type { Random } from './random';

const RUPEE = 100;
const LAKH = 100_000 * RUPEE;
/** Invoices below this are paid in one go. */
const PART_PAYMENT_FROM = 20_000 * RUPEE;
const ADVANCES_PER_MONTH = 0.02;
const BOUNCE_REASONS = [
  'funds insufficient',
  'signature differs',
  'payment stopped by drawer',
  'exceeds arrangement',
  'account closed',
];

/** Decides how an invoice will be paid and schedules it. */
export function collectPayment(sim: Simulation, invoice: Invoice): void {
  const { random } = sim;
  const customer = invoice.customer;
  const state = stateOf(sim, customer);
  // Money already on account pays first, so advances do not pile up as credit balances.
  const fromAccount = Math.min(state.onAccount, invoice.amount);
  state.onAccount -= fromAccount;
  const owed = invoice.amount - fromAccount;
  if (owed === 0) return;
  const channel = random.next();
  if (channel < 0.03) return; // disputed or slow: stays outstanding
  if (channel < 0.13 && fromAccount === 0) {
    state.pcnDue.push(invoice);
    schedule(sim, customer, { kind: 'pcn', date: workingDayFrom(invoice.date + random.int(3, 20)) });
    return;
  }
  const due = workingDayFrom(invoice.date + Math.max(1, customer.creditDays + random.int(-10, 20)));
  payLater(sim, customer, owed, due);
}

/** The customer's opening balance is paid off in the first weeks of the period. */
export function collectOpening(sim: Simulation, customer: Customer): void {
  if (customer.openingBalance < 0) stateOf(sim, customer).onAccount = -customer.openingBalance;
  if (customer.openingBalance <= 0) return;
  payLater(sim, customer, customer.openingBalance, workingDayFrom(sim.start + sim.random.int(5, 60)));
}

/** One receipt, or now and then a part payment with the rest a few weeks later. */
function payLater(sim: Simulation, customer: Customer, amount: number, due: Day): void {
  const { random } = sim;
  if (amount >= PART_PAYMENT_FROM && random.chance(0.15)) {
    const first = Math.round((amount * (0.5 + random.next() * 0.4)) / 100) * 100;
    schedule(sim, customer, { kind: 'receipt', date: due, amount: first });
    schedule(sim, customer, {
      kind: 'receipt',
      date: workingDayFrom(due + random.int(10, 30)),
      amount: amount - first,
    });
    return;
  }
  schedule(sim, customer, { kind: 'receipt', date: due, amount });
}

export function receive(
  sim: Simulation,
  customer: Customer,
  date: Day,
  amount: number,
  method?: PaymentMethod,
  reference?: string,
): void {
  const chosen = method ?? receiptMethod(sim.random, amount);
  sim.batch.receipts.push({
    no: '',
    date,
    customer,
    amount,
    method: chosen,
    reference: reference ?? paymentReference(sim.random, chosen, customer),
  });
}

/** Large amounts go by RTGS, small ones by UPI; cash stays under the legal limit of two lakh. */
function receiptMethod(random: Random, amount: number): PaymentMethod {
  if (amount >= 2 * LAKH) return random.weighted<PaymentMethod>(['RTGS', 'NEFT', 'CHEQUE', 'DD'], [45, 35, 15, 5]);
  if (amount <= LAKH)
    return random.weighted<PaymentMethod>(['NEFT', 'UPI', 'CHEQUE', 'DD', 'CASH'], [35, 20, 25, 5, 15]);
  return random.weighted<PaymentMethod>(['NEFT', 'CHEQUE', 'DD', 'CASH'], [50, 35, 5, 10]);
}

function paymentReference(random: Random, method: PaymentMethod, customer: Customer): string {
  switch (method) {
    case 'NEFT':
      return `NEFT UTR N${random.digits(15)}`;
    case 'RTGS':
      return `RTGS UTR R${random.digits(15)}`;
    case 'UPI':
      return `UPI ${random.digits(12)}`;
    case 'CHEQUE':
      return `CHQ ${random.digits(6, true)} ${customer.bank}`;
    case 'DD':
      return `DD ${random.digits(6, true)} ${customer.bank}`;
    case 'CASH':
      return `Cash deposit ${random.digits(6, true)}`;
  }
}

/** A collection visit: the invoices waiting for it are settled by one to three cheques. */
export function collectPcn(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  const state = stateOf(sim, customer);
  const ready = state.pcnDue.filter((inv) => inv.date <= date).slice(0, 3);
  if (ready.length === 0) return; // an earlier visit took them
  state.pcnDue = state.pcnDue.filter((inv) => !ready.includes(inv));
  const pcn: Pcn = { no: '', date, customer, cheques: [], invoices: [] };
  for (const invoice of ready) pcn.invoices.push({ invoice, adjusted: invoice.amount });
  const last = pcn.invoices[pcn.invoices.length - 1];
  if (last.invoice.amount >= PART_PAYMENT_FROM && random.chance(0.15)) {
    // Part of the last invoice is left for a later payment.
    last.adjusted = Math.round((last.invoice.amount * (0.5 + random.next() * 0.45)) / 100) * 100;
    payLater(sim, customer, last.invoice.amount - last.adjusted, workingDayFrom(date + random.int(15, 45)));
  }
  const total = pcn.invoices.reduce((sum, a) => sum + a.adjusted, 0);
  const count = total < 30_000 * RUPEE ? 1 : random.weighted([1, 2, 3], [5, 3, 2]);
  let chequeDate = date;
  splitAmount(total, count).forEach((amount, i) => {
    const type: PaymentType = random.chance(0.6) ? 'PDC' : 'CURRENT';
    if (type === 'PDC') chequeDate = workingDayFrom(chequeDate + (i === 0 ? random.int(7, 30) : random.int(15, 30)));
    const method: PaymentMethod = random.chance(0.85) ? 'CHEQUE' : 'DD';
    pcn.cheques.push(
      newCheque(sim, pcn, {
        type,
        method,
        amount,
        chequeNo: random.digits(6, true),
        chequeDate: type === 'PDC' ? chequeDate : date,
      }),
    );
  });
  sim.batch.pcns.push(pcn);
}

/** An advance, on a PCN of its own with no invoice against it. */
export function collectAdvance(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  if (!random.chance(ADVANCES_PER_MONTH * customer.weight)) return;
  const pcn: Pcn = { no: '', date, customer, cheques: [], invoices: [] };
  const method = random.weighted<PaymentMethod>(['NEFT', 'RTGS', 'UPI', 'CHEQUE', 'CASH'], [35, 20, 15, 25, 5]);
  const amount = random.int(5, 40) * 5000 * RUPEE;
  const paper = method === 'CHEQUE';
  const cheque = newCheque(sim, pcn, {
    type: 'ADVANCE',
    method,
    amount,
    chequeNo: paper ? random.digits(6, true) : null,
    chequeDate: method === 'CASH' ? null : date,
  });
  pcn.cheques.push(cheque);
  if (cheque.status === 'CLEARED') stateOf(sim, customer).onAccount += amount;
  sim.batch.pcns.push(pcn);
}

/**
 * The cheque's status on the as-of date, and what it leads to: a receipt when it clears, a debit
 * note and a replacement payment when it bounces, a payment by transfer when it is cancelled.
 */
function newCheque(
  sim: Simulation,
  pcn: Pcn,
  spec: Pick<Cheque, 'type' | 'method' | 'amount' | 'chequeNo' | 'chequeDate'>,
): Cheque {
  const { random } = sim;
  const customer = pcn.customer;
  const onDay = spec.chequeDate ?? pcn.date;
  const cleared = workingDayFrom(onDay + (spec.chequeNo ? random.int(1, 3) : 0));
  const fate = random.next();
  const label = spec.chequeNo ? `${spec.method === 'DD' ? 'DD' : 'CHQ'} ${spec.chequeNo} ${customer.bank}` : '';
  let status: ChequeStatus;
  if (spec.chequeNo && fate < 0.03) {
    status = 'CANCELLED';
    schedule(sim, customer, {
      kind: 'receipt',
      date: onDay,
      amount: spec.amount,
      method: 'NEFT',
      reference: `NEFT UTR N${random.digits(15)} in lieu of ${label}`,
    });
  } else if (onDay > sim.asOf) {
    status = 'RECEIVED';
  } else if (cleared > sim.asOf) {
    status = 'DEPOSITED';
  } else if (spec.chequeNo && fate < 0.08) {
    status = 'BOUNCED';
    const reason = `${label} dishonoured (${random.pick(BOUNCE_REASONS)}): bank charges`;
    // Bank charges plus 18% GST, in whole rupees.
    const charges = Math.round(random.int(300, 1000) * 1.18) * RUPEE;
    schedule(sim, customer, { kind: 'debitNote', date: cleared, pcn, amount: charges, reason });
    schedule(sim, customer, {
      kind: 'receipt',
      date: workingDayFrom(cleared + random.int(5, 20)),
      amount: spec.amount + charges,
      method: 'RTGS',
      reference: `RTGS UTR R${random.digits(15)} against returned ${label}`,
    });
  } else {
    status = 'CLEARED';
    schedule(sim, customer, {
      kind: 'receipt',
      date: cleared,
      amount: spec.amount,
      method: spec.method,
      reference: label || paymentReference(random, spec.method, customer),
    });
  }
  return {
    no: '',
    date: pcn.date,
    pcn,
    type: spec.type,
    method: spec.method,
    chequeNo: spec.chequeNo,
    chequeDate: spec.chequeDate,
    bank: spec.method === 'CASH' ? null : customer.bank,
    amount: spec.amount,
    status,
  };
}

/** Splits an amount into `count` parts in whole rupees, the last taking the remainder. */
function splitAmount(total: number, count: number): number[] {
  const share = Math.floor(total / count / 100) * 100;
  const parts = Array.from({ length: count - 1 }, () => share);
  parts.push(total - share * (count - 1));
  return parts;
}
