/**
 * Each read operation declares the tables its read reads (src/operations/types.ts, ReadDefinition.reads).
 * On the demo data, the tables the statements of each read open are exactly those declared (SQLite's
 * own program of each statement, EXPLAIN, names every table it opens).
 */
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { seed } from '../../src/demo-data';
import type { Database, UsersTable } from '../../src/db/schema';
import type { ReadOperation } from '../../src/operations/types';
import { mainServiceOperations } from '../../src/services/registry';
import { suiteApp, type TestApp } from '../support/app';
import { demoDataCalls, type Fields } from '../support/operation-inputs';
import { fixedClock, testContext } from '../support/operation';

const AS_OF = '2026-05-15';
const NOW = `${AS_OF}T10:00:00Z`;
const READS = mainServiceOperations.filter((op): op is ReadOperation => op.kind === 'read');

/**
 * demoDataCalls with the filters that make a read open more tables: a profit center, categories, zones
 * and states, a date range that ends (the deliveries after it are taken back out).
 */
async function branchingCalls(db: Kysely<Database>): Promise<Record<string, Fields[]>> {
  const calls = await demoDataCalls(db);
  const profitCenter = await db.selectFrom('profit_centers').select('code').orderBy('code').executeTakeFirstOrThrow();
  const categories = await db.selectFrom('product_categories').select('code').orderBy('code').execute();
  const state = await db.selectFrom('states').select(['code', 'zone_code']).orderBy('code').executeTakeFirstOrThrow();
  const filtered: Fields = { profitCenter: profitCenter.code, FromPCat: categories[0].code, ToPCat: categories[categories.length - 1].code, Zones: state.zone_code, FromDate: '2026-04-01', ToDate: '2026-04-30' };
  calls.getSalesSummaryRecords.push(filtered);
  calls.getOrderVDeliverySummaryRecords.push(filtered);
  calls.getOrderVsDeliveryOfficer.push({ States: state.code, FromDate: '2026-04-01', ToDate: '2026-04-30' });
  return calls;
}

describe('the tables each read declares', () => {
  let t: TestApp;
  let calls: Record<string, Fields[]>;
  let manager: UsersTable;
  suiteApp({ kind: 'sqlite', clock: fixedClock(NOW) }, (started) => (t = started));
  beforeAll(async () => {
    await seed(t.engine, { scale: 0.03, asOf: AS_OF });
    calls = await branchingCalls(t.engine.db);
    // With authentication on, reads also keep to the caller's officers.
    manager = await t.engine.db.selectFrom('users').selectAll().where('role', '=', 'AM').orderBy('id').executeTakeFirstOrThrow();
  });

  it('are the tables its statements open on the demo data, no more and no fewer', async () => {
    // A connection of this thread whose every statement, as run (parameters in place), is written down.
    let ran: string[] | undefined;
    const database = new SqliteDatabase(t.engine.describe.slice('sqlite:'.length), { verbose: (text) => ran?.push(String(text)) });
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    try {
      const roots = new Map(database.prepare<[], { rootpage: number; tbl_name: string }>('select rootpage, tbl_name from sqlite_master where rootpage > 0').all().map((row) => [row.rootpage, row.tbl_name]));
      const opened = (statement: string) => database.prepare<[], { opcode: string; p2: number }>(`explain ${statement}`).all().filter((row) => row.opcode === 'OpenRead').map((row) => roots.get(row.p2));
      const contexts = [undefined, manager].map((principal) => testContext({ ...t.engine, db }, { clock: fixedClock(NOW), principal }));
      const found: Record<string, string[]> = {};
      const declared: Record<string, string[]> = {};
      for (const op of READS) {
        const read = new Set<string>();
        for (const [fields, ctx] of calls[op.name].flatMap((fields) => contexts.map((ctx) => [fields, ctx] as const))) {
          // Only the read phase: prepare runs at every request, cached answer or not.
          const prepared = await op.prepare({ fields, files: [] }, ctx).catch(() => undefined);
          if (prepared === undefined) continue;
          const statements: string[] = (ran = []);
          await prepared.read();
          ran = undefined;
          for (const statement of statements) for (const table of opened(statement)) read.add(table ?? '(unknown)');
        }
        found[op.name] = [...read].sort();
        declared[op.name] = [...op.reads].sort();
      }
      expect(found).toEqual(declared);
    } finally {
      await db.destroy();
    }
  });
});
