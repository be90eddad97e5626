/**
 * Ledger balances from the summary data (docs/summaries.md): every customer's closing balance at the
 * end of every month from its first entry up to the horizon (the last month with any entry), kept
 * by src/summaries/upkeep.ts. A balance before the 1st of a month is one row per customer.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { summarySql } from '../summaries/engine-sql';
import { previousMonth } from '../summaries/periods';
import { ledgerHorizon } from '../summaries/upkeep';

export interface LedgerBalance {
  code: string;
  name: string;
  /** sum(debit - credit) in minor units: positive = owed by the customer. */
  balance: number;
}

/**
 * Each customer's balance of the entries dated before `firstOfMonth` (a 1st), ordered by code;
 * customers without such entries have 0. `upperCodes` (upper-cased) limits the customers, as does
 * `customerOfficers` (their owners); undefined = no limit. getOpeningBalance reads the same query
 * (balancesSelect) streamed (opening-balance.ts); these records are what src/summaries/summaries.test.ts holds to
 * the raw ledger's balances.
 */
export async function balancesBeforeMonth(
  db: Kysely<Database>,
  upperCodes: readonly string[] | undefined,
  firstOfMonth: string,
  customerOfficers?: readonly string[],
): Promise<LedgerBalance[]> {
  const read = await balancesSelect(db, upperCodes, firstOfMonth, customerOfficers);
  if (read === undefined) return [];
  const rows = await read.query.select(read.balance.as('balance')).execute();
  // PostgreSQL's sums arrive as numeric.
  return rows.map((r) => ({ ...r, balance: Number(r.balance) }));
}

/**
 * balancesBeforeMonth's query with the customer's code and name, ordered by code, and the balance as an
 * expression (minor units) for the caller to select or derive columns from; undefined when a limit
 * leaves no customer.
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
