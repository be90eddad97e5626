/**
 * Import keeps the summary data in step (docs/summaries.md, docs/import.md "Summary data"): a file of
 * orders, order lines, invoices, invoice lines, receipts or ledger entries notes, before each batch is
 * written, every customer whose summary rows of each family the batch can change, and at the end of
 * the file refreshes exactly those customers in those families, in the file's own transaction. Rows
 * the file leaves as they are change nothing, so a re-import of the same files refreshes nothing.
 */
import { sql, type RawBuilder } from 'kysely';
import { refreshSummaries, type SummaryFamily } from '../summaries/upkeep';
import { STAGING } from './staging';
import type { WriteHooks } from './table-spec';

/** The tables whose rows the summaries are made of. */
type SummarisedTable = 'orders' | 'order_lines' | 'invoices' | 'invoice_lines' | 'receipts' | 'ledger_entries';

/** The hooks of a summarised table's spec. */
export function summaryUpkeep(table: SummarisedTable, key: readonly string[]): () => WriteHooks {
  return () => {
    const customers = new Map<SummaryFamily, Set<string>>();
    return {
      assignedColumns: [],
      start: () => Promise.resolve(),
      async beforeWrite(trx) {
        for (const [family, query] of affectedCustomers(table, key)) {
          const codes = customers.get(family) ?? new Set<string>();
          customers.set(family, codes);
          for (const row of (await query.execute(trx)).rows) codes.add(row.customer_code);
        }
      },
      async afterFile(trx) {
        for (const [family, codes] of customers) await refreshSummaries(trx, codes, [family]);
      },
    };
  };
}

/**
 * Per summary family (src/summaries/upkeep.ts), the customers whose summary rows the staged batch
 * (staging.ts: the rows new or changed) can change: the customers the rows name, the ones the stored
 * rows named before the update, and the customers of the orders and documents they hang from.
 */
function affectedCustomers(table: SummarisedTable, key: readonly string[]): [SummaryFamily, RawBuilder<{ customer_code: string }>][] {
  const staged = sql.table(STAGING);
  const byKey = sql.join(key.map((c) => sql`t.${sql.ref(c)} = s.${sql.ref(c)}`), sql` and `);
  // Each staged row looked up by key (a scalar subquery): as a join, PostgreSQL hashed the whole
  // table for every batch.
  const lookUp = (select: RawBuilder<unknown>) => sql<{ customer_code: string }>`select distinct customer_code from (select (${select}) as customer_code from ${staged} s) x where customer_code is not null`;
  const named = sql<{ customer_code: string }>`select distinct customer_code from ${staged}`;
  const namedBefore = lookUp(sql`select t.customer_code from ${sql.table(table)} t where ${byKey}`);
  const ofOrders = lookUp(sql`select t.customer_code from orders t where t.order_no = s.order_no`);
  switch (table) {
    case 'orders': return [['orders', named], ['orders', namedBefore]];
    case 'order_lines': return [['orders', ofOrders]];
    // An invoice's date counts for the deliveries its lines make against orders.
    case 'invoices': return [['sales', named], ['sales', namedBefore],
      ['orders', sql`select distinct o.customer_code from orders o join invoice_lines il on il.order_no = o.order_no where il.invoice_no in (select invoice_no from ${staged})`]];
    // The orders the lines deliver against, now and before this update.
    case 'invoice_lines': return [['sales', lookUp(sql`select t.customer_code from invoices t where t.invoice_no = s.invoice_no`)],
      ['orders', ofOrders], ['orders', lookUp(sql`select o.customer_code from invoice_lines t join orders o on o.order_no = t.order_no where ${byKey}`)]];
    case 'receipts': return [['receipts', named], ['receipts', namedBefore]];
    case 'ledger_entries': return [['ledger', named], ['ledger', namedBefore]];
  }
}
