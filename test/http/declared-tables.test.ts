/**
 * The tables each read of the registry reads are derived from its statements (npm run read-tables
 * writes src/services/read-tables.ts; scripts/read-tables.ts says how), and the answer cache keeps its
 * answer under their versions (docs/operations.md, "Answer cache"). The committed file is what the
 * command writes, and no read of the registry names its tables by hand; through the real app a write
 * to any of a read's tables, by another connection, makes the kept answer read anew, while writes to
 * all the other tables leave it kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { deriveReadTables, READ_TABLES_FILE, readTablesText } from '../../scripts/read-tables';
import { seed } from '../../src/demo-data';
import type { TableName } from '../../src/db/schema';
import type { ReadOperation } from '../../src/operations/types';
import { tablesRead } from '../../src/services/mobile-app';
import { mainServiceOperations } from '../../src/services/registry';
import { suiteApp, type TestApp } from '../support/app';
import { commitElsewhere, ENGINES } from '../support/engines';
import { demoDataCalls, type Fields } from '../../src/demo-data/operation-calls';
import { fixedClock } from '../support/operation';
import { lookups } from '../support/answer-cache';
import { MAIN_PATH } from '../support/interface-table';

const AS_OF = '2026-05-15';
const NOW = `${AS_OF}T10:00:00Z`;
const READS = mainServiceOperations.filter((op): op is ReadOperation => op.kind === 'read');

describe('the tables each read of the registry reads', () => {
  it(`are in ${READ_TABLES_FILE} as npm run read-tables writes it`, async () => {
    const committed = fs.readFileSync(path.join(__dirname, '..', '..', READ_TABLES_FILE), 'utf8');
    if (committed !== readTablesText(await deriveReadTables()))
      throw new Error(
        `${READ_TABLES_FILE} differs from the tables the reads' statements open: run npm run read-tables and commit the file`,
      );
  });

  it('are named by no declaration of the registry', () => {
    expect(READS.filter((op) => op.reads !== undefined).map((op) => op.name)).toEqual([]);
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
    tables = [...(await t.engine.dataVersion!.read())]
      .filter(([, version]) => version !== null)
      .map(([table]) => table as TableName);
  });

  /** Writes one row of the table as it is, from another connection: the table's version changes. */
  async function touch(table: TableName): Promise<void> {
    const row = await t.engine.db.selectFrom(table).selectAll().limit(1).executeTakeFirst();
    if (row === undefined) throw new Error(`the demo data has no row in ${table}`);
    const column = Object.keys(row)[0];
    await commitElsewhere(
      t.engine,
      `update {${table}} set ${column} = ${column} where ${column} = (select min(${column}) from {${table}})`,
      [],
    );
  }

  /** One GET, and whether the cache answered it. */
  async function get(path: string): Promise<boolean> {
    const before = await lookups(t);
    await request(t.app).get(path);
    return (await lookups(t)).hit === before.hit + 1;
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
    const reads = tablesRead(op) ?? [];
    for (const table of tables.filter((table) => !reads.includes(table))) await touch(table);
    expect(await get(path)).toBe(true);
    for (const table of reads) {
      await touch(table);
      expect([table, await get(path)]).toEqual([table, false]);
      expect(await get(path)).toBe(true);
    }
  });
});
