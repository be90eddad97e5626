/** Ledger balances from the summary data's monthly closing balances (docs/summaries.md). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { summarySql } from '../summaries/engine-sql';
import { previousMonth } from '../summaries/periods';
import { ledgerHorizon } from '../summaries/upkeep';

/**
 * Each customer's balance of the entries before `firstOfMonth` (sum(debit - credit) in minor units: positive =
 * owed by the customer) as a query by code and an expression; undefined when `upperCodes` or `customerOfficers`
 * leave no customer. src/summaries/summaries.test.ts holds it to the raw ledger.
 */
export async function balancesSelect(db: Kysely<Database>, upperCodes: readonly string[] | undefined, firstOfMonth: string, customerOfficers?: readonly string[]) {
  if (upperCodes?.length === 0 || customerOfficers?.length === 0) return undefined;
  const month = await closingMonthBefore(db, firstOfMonth);
  const s = summarySql(db);
  let query = db
    .selectFrom('customers as c')
    .leftJoin('ledger_month_balances as b', (join) =>
      join.onRef('b.customer_code', '=', 'c.code').on(sql`b.month_start`, '=', month === undefined ? sql`null` : s.date(month)),
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
