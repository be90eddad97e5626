/**
 * Each read operation declares the tables its read reads (src/operations/types.ts, ReadDefinition.reads),
 * and the answer cache keeps its answer under their versions (docs/operations.md, "Answer cache"). On the
 * demo data: the tables the statements of each read open are exactly those declared (SQLite's own
 * program of each statement, EXPLAIN, names every table it opens); and through the real app a write to
 * any declared table, by another connection, makes the kept answer read anew, while writes to all the
 * other tables leave it kept.
 */
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import request from 'supertest';
import { seed } from '../../src/demo-data';
import type { Database, TableName, UsersTable } from '../../src/db/schema';
import type { ReadOperation } from '../../src/operations/types';
import { mainServiceOperations } from '../../src/services/registry';
import { suiteApp, type TestApp } from '../support/app';
import { commitElsewhere, ENGINES } from '../support/engines';
import { demoDataCalls, type Fields } from '../support/operation-inputs';
import { fixedClock, testContext } from '../support/operation';
import { MAIN_PATH } from '../support/interface-table';

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

describe.each(ENGINES)('the answer cache follows the declared tables: %s', (kind) => {
  let t: TestApp;
  let calls: Record<string, Fields[]>;
  let tables: TableName[];
  suiteApp({ kind, clock: fixedClock(NOW) }, (started) => (t = started));
  beforeAll(async () => {
    await seed(t.engine, { scale: 0.03, asOf: AS_OF });
    calls = await demoDataCalls(t.engine.db);
    // Every table with a version: the schema's.
    tables = [...(await t.engine.dataVersion!.read())].filter(([, version]) => version !== null).map(([table]) => table as TableName);
  });

  /** Writes one row of the table as it is, from another connection: the table's version changes. */
  async function touch(table: TableName): Promise<void> {
    const row = await t.engine.db.selectFrom(table).selectAll().limit(1).executeTakeFirst();
    if (row === undefined) throw new Error(`the demo data has no row in ${table}`);
    const column = Object.keys(row)[0];
    await commitElsewhere(t.engine, `update {${table}} set ${column} = ${column} where ${column} = (select min(${column}) from {${table}})`, []);
  }

  /** One GET, and whether the cache answered it. */
  async function get(path: string): Promise<boolean> {
    const hits = async () => Number(/^asmx_answer_cache_lookups_total\{result="hit"\} (\d+)$/m.exec((await request(t.app).get('/metrics')).text)?.[1] ?? NaN);
    const before = await hits();
    await request(t.app).get(path);
    return (await hits()) === before + 1;
  }

  it.each(READS.map((op) => [op.name, op] as const))('%s', async (name, op) => {
    // The first call of the demo data whose answer is kept (a long list is streamed, and never kept).
    let path: string | undefined;
    for (const fields of calls[name]) {
      const candidate = `${MAIN_PATH}/${name}?${new URLSearchParams(fields).toString()}`;
      await get(candidate);
      if (await get(candidate)) {
        path = candidate;
        break;
      }
    }
    if (path === undefined) throw new Error(`no answer of ${name} is kept`);
    for (const table of tables.filter((table) => !op.reads.includes(table))) await touch(table);
    expect(await get(path)).toBe(true);
    for (const table of op.reads) {
      await touch(table);
      expect([table, await get(path)]).toEqual([table, false]);
      expect(await get(path)).toBe(true);
    }
  });
});
