/**
 * Import keeps the summary data in step (docs/summaries.md, docs/import.md "Summary data"): a file of
 * orders, order lines, invoices, invoice lines, receipts or ledger entries notes, before each batch is
 * written, every customer whose summary rows the batch can change (the customers the rows name, the
 * ones they named before an update, and the customers of the orders and documents they hang from), and
 * at the end of the file refreshes exactly those customers in the file's own transaction.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { refreshSummaries, type SummaryFamily } from '../summaries/upkeep';
import type { PendingRow, WriteHooks } from './table-spec';
import { tupleIn, type Tuple } from './tuple-in';

type Trx = Transaction<Database>;

/** The tables whose rows the summaries are made of. */
type SummarisedTable = 'orders' | 'order_lines' | 'invoices' | 'invoice_lines' | 'receipts' | 'ledger_entries';

/** The summary families each table's rows go into (src/summaries/upkeep.ts). */
const FAMILIES_OF: Record<SummarisedTable, readonly SummaryFamily[]> = {
  orders: ['orders'],
  order_lines: ['orders'],
  // An invoice's lines are the sales, and its date and lines are the orders' deliveries.
  invoices: ['sales', 'orders'],
  invoice_lines: ['sales', 'orders'],
  receipts: ['receipts'],
  ledger_entries: ['ledger'],
};

/** The hooks of a summarised table's spec. */
export function summaryUpkeep(table: SummarisedTable, key: readonly string[]): () => WriteHooks {
  return () => {
    const customers = new Set<string>();
    return {
      assignedColumns: [],
      start: () => Promise.resolve(),
      async beforeWrite(trx, rows) {
        for (const code of await affectedCustomers(trx, table, key, rows)) customers.add(code);
      },
      async afterFile(trx) {
        await refreshSummaries(trx, customers, FAMILIES_OF[table]);
      },
    };
  };
}

async function affectedCustomers(trx: Trx, table: SummarisedTable, key: readonly string[], rows: PendingRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const keys: Tuple[] = rows.map((row) => key.map((column) => row.values[column]));
  const values = (column: string) => [...new Set(rows.map((row) => row.values[column]).filter((v): v is string => typeof v === 'string'))];
  const codes: string[] = [];
  const add = async (query: Promise<{ rows: { customer_code: string }[] }>) => codes.push(...(await query).rows.map((r) => r.customer_code));
  const inList = (column: string, list: string[]) => (list.length === 0 ? sql`1 = 0` : sql`${sql.ref(column)} in (${sql.join(list)})`);
  switch (table) {
    case 'orders':
    case 'invoices':
    case 'receipts':
    case 'ledger_entries':
      codes.push(...values('customer_code'));
      await add(sql<{ customer_code: string }>`select customer_code from ${sql.table(table)} where ${tupleIn(key, keys)}`.execute(trx));
      break;
    case 'order_lines':
      await add(sql<{ customer_code: string }>`select customer_code from orders where ${inList('order_no', values('order_no'))}`.execute(trx));
      break;
    case 'invoice_lines': {
      const orders = [...values('order_no')];
      // The orders the lines delivered against before this update, too.
      const before = await sql<{ order_no: string | null }>`select order_no from invoice_lines where ${tupleIn(key, keys)}`.execute(trx);
      orders.push(...before.rows.map((r) => r.order_no).filter((o): o is string => o !== null));
      await add(sql<{ customer_code: string }>`select customer_code from invoices where ${inList('invoice_no', values('invoice_no'))}`.execute(trx));
      await add(sql<{ customer_code: string }>`select customer_code from orders where ${inList('order_no', [...new Set(orders)])}`.execute(trx));
      break;
    }
  }
  if (table === 'invoices') {
    // An invoice's date counts for the deliveries its lines make against orders.
    await add(
      sql<{ customer_code: string }>`select distinct o.customer_code from orders o join invoice_lines il on il.order_no = o.order_no where ${inList('il.invoice_no', values('invoice_no'))}`.execute(trx),
    );
  }
  return codes;
}
