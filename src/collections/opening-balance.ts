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
import { amount } from '../operations/values';
import { SMALL_LIST_ROWS } from '../tunables';
import { rowBatches, StreamedData, streamedResult } from '../operations/streamed';
import type { OperationResult } from '../operations/types';
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
 * Every customer's row is a company-wide answer: streamed from a cursor as the lists are, for a caller
 * that takes streams (OperationContext.streams); else read whole through the same cursor. A few
 * customers named (at most SMALL_LIST_ROWS) are read whole by one statement, as a short PCN list is.
 */
export async function openingBalances(db: Kysely<Database>, q: OpeningBalanceQuery, streams = false): Promise<OperationResult> {
  const firstDay = isoDate(q.year, q.month, 1);
  if (q.allowed !== undefined && q.customerCodes !== undefined) {
    const outside = await firstCustomerOutside(db, q.customerCodes, q.allowed);
    if (outside !== undefined) throw outsideScope('CustomerIds', `customer ${outside}`);
  }
  const toRow = (r: BalanceRecord): OpeningBalanceRow => ({ CustomerCode: r.code, CustomerName: r.name, Month: q.month, Year: q.year, OpeningBalance: amount(r.amount), BalanceType: r.side === 'Cr' ? 'Cr' : 'Dr' });
  if (q.customerCodes !== undefined && q.customerCodes.length <= SMALL_LIST_ROWS) {
    const query = await balancesQuery(db, q, firstDay);
    return { data: query === undefined ? [] : (await query.execute()).map(toRow) };
  }
  return streamedResult(db, streams, async (trx, end) => {
    const query = await balancesQuery(trx, q, firstDay);
    const count = async () => (query === undefined ? 0 : Number((await query.clearSelect().clearOrderBy().select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n));
    return new StreamedData({ kind: 'rows', rows: () => rowBatches(trx, query, toRow) }, count, undefined, end);
  });
}

/** A customer's balance as SQL gives it: its amount in minor units and its side. */
interface BalanceRecord {
  code: string;
  name: string;
  amount: number | string;
  side: string;
}

async function balancesQuery(db: Kysely<Database>, q: OpeningBalanceQuery, firstDay: string) {
  const read = await balancesSelect(db, q.customerCodes, firstDay, q.allowed);
  return read?.query.select([sql<number | string>`abs(${read.balance})`.as('amount'), sql<string>`case when ${read.balance} >= 0 then 'Dr' else 'Cr' end`.as('side')]);
}
