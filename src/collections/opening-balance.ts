/**
 * getOpeningBalance (docs/behaviour.md): per customer, the balance of its ledger before the first day of the
 * month. Balance = sum(debit - credit) of the entries dated before that day; OpeningBalance is its
 * absolute amount and BalanceType says which side: 'Dr' (owed by the customer, also for zero) or 'Cr'.
 * With an authenticated user: the customers within their scope only; naming one outside it in
 * CustomerIds is FORBIDDEN (principal-scope.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoDate } from '../operations/parse';
import { balancesSelect } from './balance-reads';
import { readWhole } from '../db/shaped-read';
import type { RowShape } from '../db/row-shape';
import { wholeData, type JsonRows } from '../operations/json-rows';
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

/**
 * The rows are made where they are read, as JSON bytes (src/db/shaped-read.ts, readWhole), as the sales
 * reports' are: every customer's row is a company-wide answer of 30,000 rows. `streams`: the caller
 * takes them so (JsonRows, OperationContext.streams); else they are parsed.
 */
export async function openingBalances(db: Kysely<Database>, q: OpeningBalanceQuery, streams = false): Promise<OpeningBalanceRow[] | JsonRows> {
  const firstDay = isoDate(q.year, q.month, 1);
  if (q.allowed !== undefined && q.customerCodes !== undefined) {
    const outside = await firstCustomerOutside(db, q.customerCodes, q.allowed);
    if (outside !== undefined) throw outsideScope('CustomerIds', `customer ${outside}`);
  }
  const read = await balancesSelect(db, q.customerCodes, firstDay, q.allowed);
  if (read === undefined) return [];
  const { balance } = read;
  const query = read.query.select([sql.lit(q.month).as('month'), sql.lit(q.year).as('year'), sql<number>`abs(${balance})`.as('amount'), sql<string>`case when ${balance} >= 0 then 'Dr' else 'Cr' end`.as('side')]);
  const rows = await readWhole(db, query.compile(), OPENING_BALANCE_SHAPE, {});
  return wholeData<OpeningBalanceRow>(rows, streams);
}

/** The answer's row: the balance's amount from minor units, its side ('Dr' for zero too), the month asked for. */
const OPENING_BALANCE_SHAPE: RowShape = [
  { name: 'CustomerCode', column: 'code', conversion: 'value' },
  { name: 'CustomerName', column: 'name', conversion: 'value' },
  { name: 'Month', column: 'month', conversion: 'number' },
  { name: 'Year', column: 'year', conversion: 'number' },
  { name: 'OpeningBalance', column: 'amount', conversion: 'money' },
  { name: 'BalanceType', column: 'side', conversion: 'value' },
];
