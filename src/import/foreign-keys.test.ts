/**
 * A file that inserts many rows loads, on PostgreSQL, without its table's foreign keys and gives them
 * back at its end (foreign-keys.ts); when another transaction holds a table the keys lock, it keeps
 * its keys. Either way every row is stored and the keys hold afterwards, on every engine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ENGINES, freshEngine } from '../../test/support/engines';
import type { Engine } from '../db/engine';
import { findImportFiles } from './import-files';
import { runImport } from './import-run';

function productsFile(from: number, count: number): string {
  const rows = Array.from({ length: count }, (_, i) => `P${from + i},Product ${from + i},CAT01,10`);
  return ['code,name,category_code,unit_price', ...rows].join('\n') + '\n';
}

async function importProducts(engine: Engine, from: number, count: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-keys-'));
  fs.writeFileSync(path.join(dir, 'product_categories.csv'), 'code,name\nCAT01,Pumps\n');
  fs.writeFileSync(path.join(dir, 'products.csv'), productsFile(from, count));
  const results = await runImport(
    engine,
    findImportFiles(dir).files,
    { dryRun: false, dateOrder: 'DMY' },
    { reject: () => undefined, fileDone: () => undefined },
  );
  return results.find((r) => r.file === 'products.csv')!;
}

/** The database still refuses a product of a category that does not exist. */
async function expectKeysHold(engine: Engine): Promise<void> {
  await expect(
    sql`insert into products (code, name, category_code, unit_price) values ('X1', 'X', 'NO-SUCH', 0)`.execute(
      engine.db,
    ),
  ).rejects.toThrow(/foreign key/i);
}

async function storedProducts(engine: Engine): Promise<number> {
  const stored = await engine.db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(stored.n);
}

describe.each(ENGINES)('foreign keys while a file loads (%s)', (kind) => {
  let engine: Engine;

  beforeAll(async () => {
    engine = await freshEngine(kind);
  });

  afterAll(async () => {
    await engine?.close();
  });

  it('stores every row and the keys hold afterwards', async () => {
    expect(await importProducts(engine, 1, 2000)).toMatchObject({ status: 'loaded', inserted: 2000, rejected: 0 });
    expect(await storedProducts(engine)).toBe(2000);
    await expectKeysHold(engine);
  });

  it('loads the same while another transaction reads the table the keys refer to', async () => {
    // PostgreSQL: the reader's lock keeps the file from dropping the keys within its wait.
    const reader = await engine.pool?.connect();
    try {
      await reader?.query('begin');
      await reader?.query('select count(*) from product_categories');
      expect(await importProducts(engine, 5001, 2000)).toMatchObject({ status: 'loaded', inserted: 2000, rejected: 0 });
    } finally {
      await reader?.query('rollback');
      reader?.release();
    }
    expect(await storedProducts(engine)).toBe(4000);
    await expectKeysHold(engine);
  });
});
