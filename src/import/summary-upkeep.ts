/**
 * Import keeps the summary data in step (docs/summaries.md, docs/import.md "Summary data"): a file of
 * orders, order lines, invoices, invoice lines, receipts or ledger entries notes, before each batch is
 * written, every customer whose summary rows of each family the batch can change. A family is
 * refreshed for the customers noted once, after the last file of the run that feeds it (orders and
 * deliveries after invoice_lines.csv, which four files feed), in a transaction of its own. Rows the
 * file leaves as they are change nothing, so a re-import of the same files refreshes nothing.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { caughtUp, noteBehind, refreshSummaries, type Customers, type SummaryFamily } from '../summaries/upkeep';
import { withoutIndexes } from './foreign-keys';
import { STAGING } from './staging';
import type { WriteHooks } from './table-spec';

/** The tables whose rows the summaries are made of. */
type SummarisedTable = 'orders' | 'order_lines' | 'invoices' | 'invoice_lines' | 'receipts' | 'ledger_entries';

/** The families each table's rows go into (an invoice's date counts for the deliveries its lines make). */
const FEEDS: Record<SummarisedTable, SummaryFamily[]> = {
  orders: ['orders'],
  order_lines: ['orders'],
  invoices: ['sales', 'orders'],
  invoice_lines: ['sales', 'orders'],
  receipts: ['receipts'],
  ledger_entries: ['ledger'],
};

/** The customers of a family to refresh: some, or (half of them or more) every one. */
type Noted = Set<string> | 'all';

/**
 * The summary upkeep of one import run over files of these tables, in load order. From the first file
 * that feeds a family until its refresh commits, its summaries lag the raw rows, and the family is
 * noted as behind (upkeep.ts): an import stopped in between leaves the note for the next one.
 */
export class SummaryUpkeep {
  private readonly noted = new Map<SummaryFamily, Noted>();
  private readonly later: string[];

  constructor(tables: readonly string[]) {
    this.later = [...tables];
  }

  /** The file of `table` is next: the families no later file feeds are due at its end. */
  loading(table: string): void {
    this.later.splice(this.later.indexOf(table), 1);
  }

  /** The hooks of a summarised table's file. */
  hooks(table: SummarisedTable, key: readonly string[]): WriteHooks {
    const noted = new Map<SummaryFamily, Noted>();
    let customers = 0;
    return {
      assignedColumns: [],
      async start(trx) {
        const stored = await trx
          .selectFrom('customers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        customers = Number(stored.n);
      },
      beforeWrite: async (trx) => {
        for (const [family, query] of affectedCustomers(table, key)) {
          const codes = noted.get(family) ?? new Set<string>();
          noted.set(family, codes);
          // Once half the customers or more are noted, every customer is derived anew (upkeep.ts).
          if (codes === 'all' || this.noted.get(family) === 'all') continue;
          for (const row of (await query.execute(trx)).rows) codes.add(row.customer_code);
          if (codes.size * 2 >= customers) noted.set(family, 'all');
        }
      },
      afterFile: async (trx) => {
        for (const [family, codes] of noted) this.note(family, codes);
        for (const family of this.noted.keys()) await noteBehind(trx, family);
      },
    };
  }

  /**
   * Once a file is done (loaded or rolled back), hands each family no later file feeds to `refresh`,
   * which derives it in a transaction of its own (import-run.ts: on PostgreSQL beside the next files).
   */
  async settle(refresh: (fn: (trx: Transaction<Database>) => Promise<void>) => Promise<void>): Promise<void> {
    for (const [family, codes] of this.noted) {
      if (!this.due(family)) continue;
      this.noted.delete(family);
      const customers: Customers = codes === 'all' ? 'all' : [...codes];
      await refresh(async (trx) => {
        try {
          await refreshSummaries(trx, customers, [family], withoutIndexes);
          await caughtUp(trx, family);
        } catch (err) {
          throw new Error(
            `the ${family} summary data was not refreshed: ${(err as Error).message}; the files loaded are stored, and the next import (or npm run summaries -- rebuild) derives it anew`,
            { cause: err },
          );
        }
      });
    }
  }

  private note(family: SummaryFamily, codes: Noted): void {
    const known = this.noted.get(family) ?? new Set<string>();
    this.noted.set(family, known === 'all' || codes === 'all' ? 'all' : new Set([...known, ...codes]));
  }

  private due(family: SummaryFamily): boolean {
    return !this.later.some((table) => (FEEDS as Record<string, SummaryFamily[]>)[table]?.includes(family));
  }
}

/**
 * Per summary family (src/summaries/upkeep.ts), the customers whose summary rows the staged batch
 * (staging.ts: the rows new or changed) can change: the customers the rows name, the ones the stored
 * rows named before the update, and the customers of the orders and documents they hang from.
 */
function affectedCustomers(
  table: SummarisedTable,
  key: readonly string[],
): [SummaryFamily, RawBuilder<{ customer_code: string }>][] {
  const staged = sql.table(STAGING);
  const byKey = sql.join(
    key.map((c) => sql`t.${sql.ref(c)} = s.${sql.ref(c)}`),
    sql` and `,
  );
  // Each staged row looked up by key (a scalar subquery): as a join, PostgreSQL hashed the whole
  // table for every batch.
  const lookUp = (select: RawBuilder<unknown>) =>
    sql<{
      customer_code: string;
    }>`select distinct customer_code from (select (${select}) as customer_code from ${staged} s) x where customer_code is not null`;
  const named = sql<{ customer_code: string }>`select distinct customer_code from ${staged}`;
  const namedBefore = lookUp(sql`select t.customer_code from ${sql.table(table)} t where ${byKey}`);
  const ofOrders = lookUp(sql`select t.customer_code from orders t where t.order_no = s.order_no`);
  switch (table) {
    case 'orders':
      return [
        ['orders', named],
        ['orders', namedBefore],
      ];
    case 'order_lines':
      return [['orders', ofOrders]];
    // An invoice's date counts for the deliveries its lines make against orders.
    case 'invoices':
      return [
        ['sales', named],
        ['sales', namedBefore],
        [
          'orders',
          sql`select distinct o.customer_code from orders o join invoice_lines il on il.order_no = o.order_no where il.invoice_no in (select invoice_no from ${staged})`,
        ],
      ];
    // The orders the lines deliver against, now and before this update.
    case 'invoice_lines':
      return [
        ['sales', lookUp(sql`select t.customer_code from invoices t where t.invoice_no = s.invoice_no`)],
        ['orders', ofOrders],
        [
          'orders',
          lookUp(
            sql`select o.customer_code from invoice_lines t join orders o on o.order_no = t.order_no where ${byKey}`,
          ),
        ],
      ];
    case 'receipts':
      return [
        ['receipts', named],
        ['receipts', namedBefore],
      ];
    case 'ledger_entries':
      return [
        ['ledger', named],
        ['ledger', namedBefore],
      ];
  }
}
