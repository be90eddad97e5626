/**
 * Whether the stored summary data equals what the raw rows give (docs/summaries.md): in a transaction
 * rolled back at the end, the stored rows are copied aside, derived anew and compared row for row.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { CUSTOMER_SUMMARY_TABLES, FACT_LEDGER_HORIZON, FACT_MAX_DELIVERY_LAG, rebuildSummaries } from './upkeep';

export interface TableCheck {
  table: string;
  /** Rows a rebuild writes. */
  rows: number;
  /** Stored rows that the raw rows do not give. */
  extra: number;
  /** Rows the raw rows give that are not stored. */
  missing: number;
}

export interface SummaryCheck {
  tables: TableCheck[];
  /** Facts whose stored value a rebuild would change in a way that matters. */
  facts: { name: string; stored: string | null; derived: string | null }[];
  inStep: boolean;
}

export async function checkSummaries(db: Kysely<Database>): Promise<SummaryCheck> {
  const trx = await db.startTransaction().execute();
  try {
    return await compare(trx);
  } finally {
    await trx.rollback().execute();
  }
}

async function compare(trx: Transaction<Database>): Promise<SummaryCheck> {
  const tables = [...CUSTOMER_SUMMARY_TABLES, 'sales_category_sets'] as const;
  for (const table of tables)
    await sql`create temporary table ${sql.id(`stored_${table}`)} as select * from ${sql.table(table)}`.execute(trx);
  const storedFacts = await facts(trx);
  await rebuildSummaries(trx);
  const derivedFacts = await facts(trx);
  const results: TableCheck[] = [];
  for (const table of tables) {
    const stored = sql.table(`stored_${table}`);
    const derived = sql.table(table);
    const count = async (q: ReturnType<typeof sql>) =>
      Number((await sql<{ n: number }>`select count(*) as n from (${q}) d`.execute(trx)).rows[0].n);
    const rows = await count(sql`select * from ${derived}`);
    // The category sets are only ever added to: a stored set that no invoice has any more is harmless.
    const extra =
      table === 'sales_category_sets' ? 0 : await count(sql`select * from ${stored} except select * from ${derived}`);
    const missing = await count(sql`select * from ${derived} except select * from ${stored}`);
    results.push({ table, rows, extra, missing });
  }
  const factProblems = [FACT_LEDGER_HORIZON, FACT_MAX_DELIVERY_LAG]
    .map((name) => ({ name, stored: storedFacts.get(name) ?? null, derived: derivedFacts.get(name) ?? null }))
    // A longer stored delivery lag only makes reports look further back; a shorter one would be wrong.
    .filter((f) =>
      f.name === FACT_MAX_DELIVERY_LAG ? Number(f.stored ?? 0) < Number(f.derived ?? 0) : f.stored !== f.derived,
    );
  const inStep = factProblems.length === 0 && results.every((r) => r.extra === 0 && r.missing === 0);
  return { tables: results, facts: factProblems, inStep };
}

async function facts(trx: Transaction<Database>): Promise<Map<string, string>> {
  const rows = await trx.selectFrom('summary_facts').select(['name', 'value']).execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}
