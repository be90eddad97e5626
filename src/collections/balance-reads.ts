/** Ledger balances from the summary data's monthly closing balances (docs/summaries.md). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { summarySql } from '../summaries/engine-sql';
import { previousMonth } from '../summaries/periods';
import { ledgerHorizon } from '../summaries/upkeep';

/**
 * Each customer's balance of the entries before `firstOfMonth` (sum(debit - credit) in minor units:
 * positive = owed by the customer), by code, limited by `upperCodes` and `customerOfficers` when
 * given: what src/summaries/summaries.test.ts holds to the raw ledger.
 */
export async function balancesBeforeMonth(db: Kysely<Database>, upperCodes: readonly string[] | undefined, firstOfMonth: string, customerOfficers?: readonly string[]) {
  const read = await balancesSelect(db, upperCodes, firstOfMonth, customerOfficers);
  if (read === undefined) return [];
  const rows = await read.query.select(read.balance.as('balance')).execute();
  // PostgreSQL's sums arrive as numeric.
  return rows.map((r) => ({ ...r, balance: Number(r.balance) }));
}

/** balancesBeforeMonth's query and its balance as an expression; undefined when a limit leaves no customer. */
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
