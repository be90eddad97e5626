/** getOpeningBalance (docs/behaviour.md): each customer's ledger balance before the 1st of the month. */
import { sql, type InferResult, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoDate } from '../operations/parse';
import { balancesSelect } from './balance-reads';
import { amount } from '../operations/values';
import { SMALL_LIST_ROWS } from '../tunables';
import { rowBatches, StreamedData, streamedResult } from '../operations/streamed';
import type { OperationResult } from '../operations/types';
import type { OfficerBound } from '../users/principal-scope';

export interface OpeningBalanceQuery {
  /** Upper-cased customer codes; undefined = every customer. Unknown codes are left out. */
  customerCodes?: readonly string[];
  month: number;
  year: number;
  /** The authenticated user's bound; undefined = none. */
  allowed?: OfficerBound;
}

/** Company-wide, it streams as the lists do; up to SMALL_LIST_ROWS customers named are read whole. */
export async function openingBalances(db: Kysely<Database>, q: OpeningBalanceQuery, streams = false): Promise<OperationResult> {
  const firstDay = isoDate(q.year, q.month, 1);
  const toRow = (r: BalanceRecord) => ({ CustomerCode: r.code, CustomerName: r.name, Month: q.month, Year: q.year, OpeningBalance: amount(r.amount), BalanceType: r.side === 'Cr' ? 'Cr' : 'Dr' });
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
type BalanceRecord = InferResult<NonNullable<Awaited<ReturnType<typeof balancesQuery>>>>[number];

async function balancesQuery(db: Kysely<Database>, q: OpeningBalanceQuery, firstDay: string) {
  const read = await balancesSelect(db, q.customerCodes, firstDay, q.allowed);
  return read?.query.select([sql<number | string>`abs(${read.balance})`.as('amount'), sql<string>`case when ${read.balance} >= 0 then 'Dr' else 'Cr' end`.as('side')]);
}
