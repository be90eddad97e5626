/**
 * getOpeningBalance (domain.md): per customer, the balance of its ledger before the first day of the
 * month. Balance = sum(debit - credit) of the entries dated before that day; OpeningBalance is its
 * absolute amount and BalanceType says which side: 'Dr' (owed by the customer, also for zero) or 'Cr'.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/money';
import { isoDate } from '../operations/parse';
import { ledgerBalancesBefore } from './repository';

export interface OpeningBalanceQuery {
  /** Upper-cased customer codes; undefined = every customer. Unknown codes are left out. */
  customerCodes?: readonly string[];
  month: number;
  year: number;
}

export interface OpeningBalanceRow {
  CustomerCode: string;
  CustomerName: string;
  Month: number;
  Year: number;
  OpeningBalance: number;
  BalanceType: 'Dr' | 'Cr';
}

export async function openingBalances(db: Kysely<Database>, q: OpeningBalanceQuery): Promise<OpeningBalanceRow[]> {
  const firstDay = isoDate(q.year, q.month, 1);
  const balances = await ledgerBalancesBefore(db, q.customerCodes, firstDay);
  return balances.map((b) => ({
    CustomerCode: b.code,
    CustomerName: b.name,
    Month: q.month,
    Year: q.year,
    OpeningBalance: amount(Math.abs(b.balance)),
    BalanceType: b.balance >= 0 ? 'Dr' : 'Cr',
  }));
}
