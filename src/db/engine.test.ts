import { PostgresIntrospector, sql, SqliteIntrospector } from 'kysely';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { isMigrated, migrate } from './migrate';

describe.each(ENGINES)('database engine: %s', (kind) => {
  it('applies the migrations once, and again is a no-op', async () => {
    const engine = await freshEngine(kind);
    try {
      expect(await isMigrated(engine)).toBe(true);
      await migrate(engine);
      const counters = await engine.db.selectFrom('counters').selectAll().orderBy('name').execute();
      expect(counters.map((c) => c.name)).toEqual(['warranty_change_seq', 'warranty_file_id', 'warranty_request_no']);
    } finally {
      await engine.close();
    }
  });

  it("describes its own tables only, as Kysely's introspector describes them (on PostgreSQL: not another schema's)", async () => {
    const [engine, other] = [await freshEngine(kind), await freshEngine(kind)];
    try {
      await sql`create table only_in_other (id integer primary key, note text)`.execute(other.db);
      const tables = await engine.db.introspection.getTables();
      expect(tables.map((t) => t.name)).toContain('customers');
      expect(tables.map((t) => t.name)).not.toContain('only_in_other');
      expect(tables.map((t) => t.name)).not.toContain('kysely_migration');
      // Kysely's own, which reads every schema of the database, kept to this engine's.
      const reference = kind === 'postgres' ? new PostgresIntrospector(engine.db) : new SqliteIntrospector(engine.db);
      expect(tables).toEqual((await reference.getTables()).filter((t) => t.schema === engine.schema));
      const withKysely = await engine.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(withKysely.map((t) => t.name)).toEqual(
        expect.arrayContaining(['kysely_migration', 'kysely_migration_lock']),
      );
      expect((await other.db.introspection.getTables()).map((t) => t.name)).toContain('only_in_other');
    } finally {
      await Promise.all([engine.close(), other.close()]);
    }
  });

  it('hands money back as numbers, dates and timestamps as strings', async () => {
    const engine = await freshEngine(kind);
    try {
      const db = engine.db;
      await db.insertInto('zones').values({ code: 'N', name: 'North' }).execute();
      await db.insertInto('states').values({ code: 'DL', name: 'Delhi', zone_code: 'N' }).execute();
      await db
        .insertInto('users')
        .values({
          id: 'SO1',
          username: 'so1',
          name: 'Officer',
          role: 'SO',
          manager_id: null,
          zone_code: 'N',
          active: 1,
        })
        .execute();
      await db
        .insertInto('customers')
        .values({
          code: 'C1',
          name: 'Cust',
          state_code: 'DL',
          sales_officer_id: 'SO1',
          credit_limit: 9_000_000_000_000,
          active: 1,
        })
        .execute();
      await db
        .insertInto('activities')
        .values({
          activity_no: 'A1',
          activity_date: '2026-02-28',
          activity_type: 'VISIT',
          customer_code: 'C1',
          sales_officer_id: 'SO1',
          description: 'd',
          status: 'PENDING',
          decided_by: null,
          decided_at: '2026-03-01T10:11:12.345Z',
          remarks: null,
        })
        .execute();
      const c = await db.selectFrom('customers').select(['credit_limit']).executeTakeFirstOrThrow();
      expect(c.credit_limit).toBe(9_000_000_000_000);
      const sum = await db
        .selectFrom('customers')
        .select(sql<number>`sum(credit_limit)`.as('total'))
        .executeTakeFirstOrThrow();
      expect(sum.total).toBe(9_000_000_000_000);
      const a = await db.selectFrom('activities').select(['activity_date', 'decided_at']).executeTakeFirstOrThrow();
      expect(a).toEqual({ activity_date: '2026-02-28', decided_at: '2026-03-01T10:11:12.345Z' });
    } finally {
      await engine.close();
    }
  });
});
