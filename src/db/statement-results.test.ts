/**
 * The kept results of small reads (statement-results.ts) on both engines, as a read of the server
 * makes them: inside withTablesRead with the versions taken before it. A SELECT of unchanged tables
 * is answered from kept rows, each caller with rows of its own; a commit to a table the statement
 * names, from any connection, makes it read again, a commit to another table does not; statements
 * inside transactions, large results, tables without a version and reads without versions are never
 * kept.
 */
import { sql } from 'kysely';
import type { Engine } from './engine';
import { commitElsewhere, ENGINES, suiteEngine } from '../../test/support/engines';
import { withTablesRead } from './tables-read';

describe.each(ENGINES)('statement results: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened), async () => {
    await engine.db.insertInto('zones').values([{ code: 'N', name: 'North' }, { code: 'S', name: 'South' }]).execute();
  });

  /** The work as a read of the server makes it: the versions first. */
  async function asRead<T>(work: () => Promise<T>): Promise<T> {
    return (await withTablesRead(await engine.dataVersion!.read(), work)).result;
  }
  const counts = () => ({ hits: engine.statementResults!.counts.hits, misses: engine.statementResults!.counts.misses });
  const zones = () => asRead(() => engine.db.selectFrom('zones').select(['code', 'name']).orderBy('code').execute());

  it('answers an equal read of unchanged tables from the kept rows, each caller with rows of its own', async () => {
    const first = await zones();
    const before = counts();
    const second = await zones();
    expect(second).toEqual(first);
    expect(counts()).toEqual({ hits: before.hits + 1, misses: before.misses });
    second[0].name = 'changed by the caller';
    expect(await zones()).toEqual(first);
  });

  it('keeps the rows across a commit to another table, and reads again after one to a table the statement names', async () => {
    await zones();
    await commitElsewhere(engine, 'insert into {states} (code, name, zone_code) values (?, ?, ?)', ['DL', 'Delhi', 'N']);
    const before = counts();
    await zones();
    expect(counts().hits).toBe(before.hits + 1);
    await commitElsewhere(engine, 'update {zones} set name = ? where code = ?', ['Northern', 'N']);
    const after = counts();
    expect(await zones()).toEqual([{ code: 'N', name: 'Northern' }, { code: 'S', name: 'South' }]);
    expect(counts()).toEqual({ hits: after.hits, misses: after.misses + 1 });
  });

  it('counts the statement and its parameters in the bytes it keeps, and keeps none whose key alone passes the bound', async () => {
    const named = (code: string) => asRead(() => engine.db.selectFrom('zones').select('name').where('code', '=', code).execute());
    const kept = () => ({ size: engine.statementResults!.counts.size, count: engine.statementResults!.counts.count });
    const before = kept();
    await named('N'.repeat(10_000));
    expect(kept().count).toBe(before.count + 1);
    expect(kept().size - before.size).toBeGreaterThanOrEqual(2 * 10_000);
    const large = kept();
    await named('N'.repeat(200_000));
    expect(kept()).toEqual(large);
  });

  it('keeps nothing read inside a transaction, over 1,000 rows, from a table without a version, or without versions', async () => {
    await sql`create table scratch (n integer)`.execute(engine.db);
    const before = counts();
    await asRead(() =>
      engine.db.transaction().execute(async (trx) => {
        await trx.selectFrom('zones').selectAll().execute();
        await trx.selectFrom('zones').selectAll().execute();
      }),
    );
    await engine.db.selectFrom('zones').selectAll().execute();
    // Looked up none of those times.
    expect(counts()).toEqual(before);
    const many = sql<{ x: number }>`select c.x from (with recursive c(x) as (select 1 union all select x + 1 from c where x < 1001) select x from c) c, zones where zones.code = 'N'`;
    const scratch = sql`select n from scratch`;
    for (let i = 0; i < 2; i++) {
      expect((await asRead(() => many.execute(engine.db))).rows).toHaveLength(1001);
      await asRead(() => scratch.execute(engine.db));
    }
    expect(counts()).toEqual({ hits: before.hits, misses: before.misses + 4 });
  });
});
