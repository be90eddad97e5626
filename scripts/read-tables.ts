/**
 * npm run read-tables
 *
 * Writes src/services/read-tables.ts: the tables each read of the registry reads, under whose versions
 * the answer cache keeps its answers (docs/operations.md, "Answer cache"). Each read runs on the demo
 * data with its calls (src/demo-data/operation-calls.ts, and filters that open more tables), with and
 * without an authenticated manager; SQLite's program of each statement it ran (EXPLAIN) names every
 * table the statement opens. test/http/declared-tables.test.ts fails while the committed file differs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { loadSettings } from '../src/config';
import { withMigratedEngine } from '../src/db/migrate';
import type { Database } from '../src/db/schema';
import { seed } from '../src/demo-data';
import { demoDataCalls, type Fields } from '../src/demo-data/operation-calls';
import type { OperationContext, ReadOperation } from '../src/operations/types';
import { mainServiceOperations } from '../src/services/registry';

export const READ_TABLES_FILE = 'src/services/read-tables.ts';

const AS_OF = '2026-05-15';
const NOW = new Date(`${AS_OF}T10:00:00Z`);

/** demoDataCalls with the filters that make a read open more tables: a profit center, categories, zones and states, a date range that ends. */
async function branchingCalls(db: Kysely<Database>): Promise<Record<string, Fields[]>> {
  const calls = await demoDataCalls(db);
  const profitCenter = await db.selectFrom('profit_centers').select('code').orderBy('code').executeTakeFirstOrThrow();
  const categories = await db.selectFrom('product_categories').select('code').orderBy('code').execute();
  const state = await db.selectFrom('states').select(['code', 'zone_code']).orderBy('code').executeTakeFirstOrThrow();
  const filtered: Fields = {
    profitCenter: profitCenter.code,
    FromPCat: categories[0].code,
    ToPCat: categories[categories.length - 1].code,
    Zones: state.zone_code,
    FromDate: '2026-04-01',
    ToDate: '2026-04-30',
  };
  calls.getSalesSummaryRecords.push(filtered);
  calls.getOrderVDeliverySummaryRecords.push(filtered);
  calls.getOrderVsDeliveryOfficer.push({ States: state.code, FromDate: '2026-04-01', ToDate: '2026-04-30' });
  return calls;
}

/** Operation name to the tables its read phase opened, sorted, for every read of the registry. */
export async function deriveReadTables(): Promise<Record<string, string[]>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-tables-'));
  const file = path.join(dir, 'demo.db');
  try {
    return await withMigratedEngine(`sqlite:${file}`, async (engine) => {
      await seed(engine, { scale: 0.03, asOf: AS_OF });
      const calls = await branchingCalls(engine.db);
      // With authentication on, reads also keep to the caller's officers.
      const manager = await engine.db
        .selectFrom('users')
        .selectAll()
        .where('role', '=', 'AM')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      // A connection whose every statement, as run (parameters in place), is written down.
      let ran: string[] | undefined;
      const database = new SqliteDatabase(file, { verbose: (text) => ran?.push(String(text)) });
      const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
      try {
        const roots = new Map(
          database
            .prepare<[], { rootpage: number; tbl_name: string }>(
              'select rootpage, tbl_name from sqlite_master where rootpage > 0',
            )
            .all()
            .map((row) => [row.rootpage, row.tbl_name]),
        );
        const opened = (statement: string) =>
          database
            .prepare<[], { opcode: string; p2: number }>(`explain ${statement}`)
            .all()
            .filter((row) => row.opcode === 'OpenRead')
            .map((row) => roots.get(row.p2));
        const settings = loadSettings({});
        const contexts: OperationContext[] = [undefined, manager].map((principal) => ({
          db,
          engine: { ...engine, db },
          clock: { now: () => new Date(NOW) },
          settings,
          principal,
        }));
        const found: Record<string, string[]> = {};
        for (const op of mainServiceOperations.filter((op): op is ReadOperation => op.kind === 'read')) {
          const read = new Set<string>();
          for (const fields of calls[op.name] ?? []) {
            for (const ctx of contexts) {
              // Only the read phase: prepare runs at every request, cached answer or not.
              const prepared = await op.prepare({ fields, files: [] }, ctx).catch(() => undefined);
              if (prepared === undefined) continue;
              const statements: string[] = (ran = []);
              await prepared.read();
              ran = undefined;
              for (const statement of statements) {
                for (const table of opened(statement)) {
                  if (table === undefined)
                    throw new Error(`${op.name}: a statement opens what sqlite_master does not name: ${statement}`);
                  read.add(table);
                }
              }
            }
          }
          if (read.size === 0)
            throw new Error(
              `${op.name}: no call of src/demo-data/operation-calls.ts reads a table; give it calls that do`,
            );
          found[op.name] = [...read].sort();
        }
        return found;
      } finally {
        await db.destroy();
      }
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The file's text for these tables. */
export function readTablesText(tables: Record<string, string[]>): string {
  const entries = Object.keys(tables)
    .sort()
    .map((name) => `  ${name}: [${tables[name].map((table) => `'${table}'`).join(', ')}],\n`);
  return `/**
 * Written by npm run read-tables (scripts/read-tables.ts); do not edit. The tables each read of the
 * registry reads, as SQLite opened them on the demo data: the answer cache keeps its answers under their
 * versions. A read outside the registry (an embedder's) names its own (ReadDefinition.reads).
 */
import type { TableName } from '../db/schema';

export const READ_TABLES: Readonly<Partial<Record<string, readonly TableName[]>>> = {
${entries.join('')}};
`;
}

async function main(): Promise<void> {
  // Run by npm from the project's folder.
  const target = path.join(process.cwd(), READ_TABLES_FILE);
  const text = readTablesText(await deriveReadTables());
  const unchanged = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text;
  if (!unchanged) fs.writeFileSync(target, text);
  process.stdout.write(`${READ_TABLES_FILE}: ${unchanged ? 'unchanged' : 'written'}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`read-tables: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
}
