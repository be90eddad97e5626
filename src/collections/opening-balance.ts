/**
 * getOpeningBalance (docs/behaviour.md): per customer, the balance of its ledger before the first day of the
 * month. Balance = sum(debit - credit) of the entries dated before that day; OpeningBalance is its
 * absolute amount and BalanceType says which side: 'Dr' (owed by the customer, also for zero) or 'Cr'.
 * With an authenticated user: the customers within their scope only; naming one outside it in
 * CustomerIds is FORBIDDEN (principal-scope.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/money';
import { isoDate } from '../operations/parse';
import { balancesBeforeMonth } from './balance-reads';
import { mapInTurns } from '../operations/turns';
import { firstCustomerOutside } from './repository';
import { outsideScope, type OfficerBound } from '../users/principal-scope';

export interface OpeningBalanceQuery {
  /** Upper-cased customer codes; undefined = every customer. Unknown codes are left out. */
  customerCodes?: readonly string[];
  month: number;
  year: number;
  /** The authenticated user's bound; undefined = none. */
  allowed?: OfficerBound;
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
  if (q.allowed !== undefined && q.customerCodes !== undefined) {
    const outside = await firstCustomerOutside(db, q.customerCodes, q.allowed);
    if (outside !== undefined) throw outsideScope('CustomerIds', `customer ${outside}`);
  }
  const balances = await balancesBeforeMonth(db, q.customerCodes, firstDay, q.allowed);
  return mapInTurns(balances, (b) => ({
    CustomerCode: b.code,
    CustomerName: b.name,
    Month: q.month,
    Year: q.year,
    OpeningBalance: amount(Math.abs(b.balance)),
    BalanceType: b.balance >= 0 ? 'Dr' : 'Cr',
  }));
}
