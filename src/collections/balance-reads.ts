/**
 * Ledger balances from the summary data's monthly closing balances (docs/summaries.md), and
 * getOpeningBalance (docs/behaviour.md): each customer's ledger balance before the 1st of the month.
 */
import { sql, type InferResult, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { isoDate } from '../operations/parse';
import { amount } from '../operations/values';
import { SMALL_LIST_ROWS } from '../tunables';
import { rowBatches, StreamedData, streamedResult, type Streams } from '../operations/streamed';
import type { OperationResult } from '../operations/types';
import type { OfficerBound } from '../users/principal-scope';
import { summarySql } from '../summaries/engine-sql';
import { previousMonth } from '../summaries/periods';
import { ledgerHorizon } from '../summaries/upkeep';

/**
 * Each customer's balance of the entries before `firstOfMonth` (sum(debit - credit) in minor units: positive =
 * owed by the customer) as a query by code and an expression; undefined when `upperCodes` or `customerOfficers`
 * leave no customer. src/summaries/summaries.test.ts holds it to the raw ledger.
 */
export async function balancesSelect(
  db: Kysely<Database>,
  upperCodes: readonly string[] | undefined,
  firstOfMonth: string,
  customerOfficers?: readonly string[],
) {
  if (upperCodes?.length === 0 || customerOfficers?.length === 0) return undefined;
  const month = await closingMonthBefore(db, firstOfMonth);
  const s = summarySql(db);
  let query = db
    .selectFrom('customers as c')
    .leftJoin('ledger_month_balances as b', (join) =>
      join
        .onRef('b.customer_code', '=', 'c.code')
        .on(sql`b.month_start`, '=', month === undefined ? sql`null` : s.date(month)),
    )
    .select(['c.code', 'c.name'])
    .orderBy('c.code');
  if (upperCodes !== undefined) query = query.where((eb) => eb(eb.fn('upper', ['c.code']), 'in', upperCodes));
  if (customerOfficers !== undefined) query = query.where('c.sales_officer_id', 'in', customerOfficers);
  return { query, balance: sql<number>`coalesce(b.closing_balance, 0)` };
}

/**
 * The month whose closing balances hold every entry before `firstOfMonth`: the month before it, or
 * the horizon when that is earlier (no entry lies after the horizon); undefined when there are none.
 */
export async function closingMonthBefore(db: Kysely<Database>, firstOfMonth: string): Promise<string | undefined> {
  const horizon = await ledgerHorizon(db);
  if (horizon === undefined) return undefined;
  const previous = previousMonth(firstOfMonth);
  return previous < horizon ? previous : horizon;
}

export interface OpeningBalanceQuery {
  /** Upper-cased customer codes; undefined = every customer. Unknown codes are left out. */
  customerCodes?: readonly string[];
  month: number;
  year: number;
  /** The authenticated user's bound; undefined = none. */
  allowed?: OfficerBound;
}

/** Company-wide, it streams as the lists do; up to SMALL_LIST_ROWS customers named are read whole. */
export async function openingBalances(
  db: Kysely<Database>,
  q: OpeningBalanceQuery,
  streams?: Streams,
): Promise<OperationResult> {
  const firstDay = isoDate(q.year, q.month, 1);
  const toRow = (r: BalanceRecord) => ({
    CustomerCode: r.code,
    CustomerName: r.name,
    Month: q.month,
    Year: q.year,
    OpeningBalance: amount(r.amount),
    BalanceType: r.side === 'Cr' ? 'Cr' : 'Dr',
  });
  if (q.customerCodes !== undefined && q.customerCodes.length <= SMALL_LIST_ROWS) {
    const query = await balancesQuery(db, q, firstDay);
    return { data: query === undefined ? [] : (await query.execute()).map(toRow) };
  }
  return streamedResult(db, streams, async (trx, end) => {
    const query = await balancesQuery(trx, q, firstDay);
    const count = async () =>
      query === undefined
        ? 0
        : Number(
            (
              await query
                .clearSelect()
                .clearOrderBy()
                .select(sql<number | string>`count(*)`.as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
    return new StreamedData({ kind: 'rows', rows: () => rowBatches(trx, query, toRow) }, count, undefined, end);
  });
}

/** A customer's balance as SQL gives it: its amount in minor units and its side. */
type BalanceRecord = InferResult<NonNullable<Awaited<ReturnType<typeof balancesQuery>>>>[number];

async function balancesQuery(db: Kysely<Database>, q: OpeningBalanceQuery, firstDay: string) {
  const read = await balancesSelect(db, q.customerCodes, firstDay, q.allowed);
  return read?.query.select([
    sql<number | string>`abs(${read.balance})`.as('amount'),
    sql<string>`case when ${read.balance} >= 0 then 'Dr' else 'Cr' end`.as('side'),
  ]);
}

/** The first of the customers named (upper-cased codes) that is owned by none of the officers. */
export async function firstCustomerOutside(
  db: Kysely<Database>,
  upperCodes: readonly string[],
  officers: readonly string[],
): Promise<string | undefined> {
  if (upperCodes.length === 0) return undefined;
  const row = await db
    .selectFrom('customers')
    .select('code')
    .where((eb) => eb(eb.fn('upper', ['code']), 'in', upperCodes))
    .where('sales_officer_id', 'not in', officers)
    .orderBy('code')
    .executeTakeFirst();
  return row?.code;
}
