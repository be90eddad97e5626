/**
 * The SQLite worker-thread engine (src/db/sqlite-worker/): the event loop stays free while a long
 * query runs, reads run beside an open write transaction, write transactions queue instead of
 * losing updates or deadlocking, read-only transactions see one snapshot, cursors stop when their
 * consumer stops, large results come a part at a time, whole results read by a shape, of any size, have their rows made and written as JSON in the worker,
 * errors keep their SQLite codes and blobs stay Buffers, and a worker that dies is
 * replaced while the query that was on it fails. Real worker threads on a real file throughout.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { openEngine, type Engine } from '../engine';
import { temporarySqlite } from '../../../test/support/engines';
import { migrate } from '../migrate';
import { isUniqueViolation } from '../unique-violation';
import { WORKER_NICE } from './protocol';
import { WORKER_MESSAGE_ROWS } from '../../tunables';

/** A SELECT that keeps SQLite busy for about `rows` steps without touching a table. */
function slowCount(rows: number) {
  return sql<{
    n: number;
  }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${rows}) select count(*) as n from c`;
}

describe('SQLite on worker threads', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = temporarySqlite();
    await migrate(engine);
    await sql`create table counter (id integer primary key, n integer not null)`.execute(engine.db);
    await sql`insert into counter (id, n) values (1, 0)`.execute(engine.db);
  });
  afterAll(() => engine.close());

  it('keeps the event loop free while a multi-second query runs on a worker', async () => {
    const started = Date.now();
    const heavy = slowCount(20_000_000).execute(engine.db);
    const lags: number[] = [];
    let finished = false;
    void heavy.then(() => (finished = true));
    while (!finished && lags.length < 40) {
      const before = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
      lags.push(Date.now() - before - 20);
    }
    const { rows } = await heavy;
    expect(rows[0].n).toBe(20_000_000);
    // The query took seconds (blocking, every timer would have waited for all of it) ...
    expect(Date.now() - started).toBeGreaterThan(1000);
    // ... while each 20 ms timer fired within a generous bound.
    expect(Math.max(...lags)).toBeLessThan(500);
  });

  it('answers reads on the readers while a write transaction holds the writer', async () => {
    const trx = await engine.db.startTransaction().execute();
    await sql`update counter set n = n + 100 where id = 1`.execute(trx);
    const outside = await sql<{ n: number }>`select n from counter where id = 1`.execute(engine.db);
    const built = await engine.db
      .selectFrom('counter' as never)
      .select('n' as never)
      .executeTakeFirstOrThrow();
    expect(outside.rows[0].n).toBe(0);
    expect(built).toEqual({ n: 0 });
    await trx.rollback().execute();
  });

  it('runs two read-modify-write transactions one after the other (BEGIN IMMEDIATE): no lost update, no deadlock', async () => {
    const increment = () =>
      engine.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 30));
        await sql`update counter set n = ${rows[0].n + 1} where id = 1`.execute(trx);
      });
    await Promise.all([increment(), increment(), increment()]);
    const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(engine.db);
    expect(rows[0].n).toBe(3);
  });

  it('gives a read-only transaction one snapshot while the writer commits beside it', async () => {
    const snapshot = await engine.db.startTransaction().setAccessMode('read only').execute();
    const first = await sql<{ n: number }>`select n from counter where id = 1`.execute(snapshot);
    await sql`update counter set n = n + 10 where id = 1`.execute(engine.db);
    const again = await sql<{ n: number }>`select n from counter where id = 1`.execute(snapshot);
    await snapshot.commit().execute();
    const after = await sql<{ n: number }>`select n from counter where id = 1`.execute(engine.db);
    expect(again.rows[0].n).toBe(first.rows[0].n);
    expect(after.rows[0].n).toBe(first.rows[0].n + 10);
  });

  it('streams a cursor in batches and frees the worker when the consumer stops early', async () => {
    await sql`create table big (id integer primary key, label text not null)`.execute(engine.db);
    await sql`insert into big (id, label) with recursive c(x) as (select 1 union all select x + 1 from c where x < 50000) select x, 'row ' || x from c`.execute(
      engine.db,
    );
    const seen: number[] = [];
    const stream = engine.db
      .selectFrom('big' as never)
      .select(['id' as never])
      .orderBy('id' as never)
      .stream(100) as AsyncIterable<{ id: number }>;
    for await (const row of stream) {
      seen.push(row.id);
      if (seen.length === 250) break;
    }
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(engine.sqliteWorkers!.stats().busy).toBe(0);
    const { rows } = await sql<{ n: number }>`select count(*) as n from big`.execute(engine.db);
    expect(rows[0].n).toBe(50000);
  });

  it('keeps SQLite error codes (unique violations) and blobs as Buffers', async () => {
    await sql`create table files (id integer primary key, name text not null unique, content blob not null)`.execute(
      engine.db,
    );
    const content = Buffer.from([0, 1, 2, 250, 255]);
    await sql`insert into files (name, content) values (${'a'}, ${content})`.execute(engine.db);
    const failure = await sql`insert into files (name, content) values (${'a'}, ${content})`
      .execute(engine.db)
      .catch((err: unknown) => err);
    expect(isUniqueViolation(failure)).toBe(true);
    const { rows } = await sql<{ content: Buffer }>`select content from files where name = 'a'`.execute(engine.db);
    expect(Buffer.isBuffer(rows[0].content)).toBe(true);
    expect(rows[0].content.equals(content)).toBe(true);
  });

  it('hands over every value exactly as better-sqlite3 reads it in-process: text, integers, reals, null, Infinity, -0, blobs', async () => {
    const text = 'Zoë 𝄞 \u2028 "quoted" \\ \n';
    const read = async (query: ReturnType<typeof sql<Record<string, unknown>>>) =>
      (await query.execute(engine.db)).rows;
    // All JSON can carry: the rows arrive as objects, their columns in the statement's order.
    const plain = await read(
      sql`select ${text} as t, 9007199254740991 as big, 0.1 + 0.2 as real, null as none, 5e-324 as tiny`,
    );
    expect(plain).toEqual([{ t: text, big: 9007199254740991, real: 0.1 + 0.2, none: null, tiny: 5e-324 }]);
    expect(Object.keys(plain[0])).toEqual(['t', 'big', 'real', 'none', 'tiny']);
    // What JSON cannot carry, beside ordinary values in the same result.
    const odd = await read(
      sql`select 'a' as t, 1e999 as inf, -1e999 as ninf, -0.0 as nzero, x'00ff' as bytes union all select 'b', 1, 2, 3, null`,
    );
    expect(odd).toEqual([
      { t: 'a', inf: Infinity, ninf: -Infinity, nzero: -0, bytes: Buffer.from([0, 255]) },
      { t: 'b', inf: 1, ninf: 2, nzero: 3, bytes: null },
    ]);
    expect(Object.is(odd[0].nzero, -0)).toBe(true);
    expect(Buffer.isBuffer(odd[0].bytes)).toBe(true);
    // A name given twice keeps the last value, as in-process.
    expect(await read(sql`select 1 as n, 2 as n`)).toEqual([{ n: 2 }]);
    // Names that are not identifiers are property names and nothing else, as in-process.
    const names = 'select 1 as "__proto__", 2 as "a"" }; x", 3 as "constructor", 4 as "\u2028", 5 as ""';
    const inProcess = new Database(':memory:');
    try {
      const expected = inProcess.prepare(names).all();
      const { rows } = await sql.raw<Record<string, unknown>>(names).execute(engine.db);
      expect(rows).toEqual(expected);
      expect(Object.keys(rows[0])).toEqual(Object.keys(expected[0] as object));
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    } finally {
      inProcess.close();
    }
  });

  it('hands over text and integers exactly as better-sqlite3 reads them in-process, in order: odd characters, integers past 2^53', async () => {
    await sql`create table texts (id integer primary key, t text, n integer)`.execute(engine.db);
    const texts = [
      '',
      'Zoë 𝄞 \u2028\u2029',
      '"quoted" \\ back/slash',
      '\u0001\u001f\u007f\t\r\n',
      '{"looks":["like", "json"]}',
      '😀',
      'null',
      null,
    ];
    const numbers = [0, -1, 9007199254740991, 9007199254740993n, -9223372036854775808n, 9223372036854775807n, 42, null];
    for (let i = 0; i < texts.length; i++)
      await sql`insert into texts (id, t, n) values (${i + 1}, ${texts[i]}, ${numbers[i]})`.execute(engine.db);
    const query = "select id, t, n, t || '!' as shout, length(t) as len from texts where id > ? order by id desc";
    const inProcess = new Database(engine.describe.slice('sqlite:'.length), { readonly: true });
    try {
      const expected = inProcess.prepare(query).all(0);
      // Several times, so that every reader thread has it prepared.
      for (let i = 0; i < 4; i++) {
        const { rows } = await sql.raw<Record<string, unknown>>(query.replace('?', '0')).execute(engine.db);
        expect(rows).toEqual(expected);
        expect(rows.map((r) => r.id)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
        expect(Object.keys(rows[0])).toEqual(['id', 't', 'n', 'shout', 'len']);
      }
    } finally {
      inProcess.close();
    }
    // A value written by SQLite's JSON functions stays text, as in-process.
    const { rows } = await sql<{ j: string }>`select json_object('a', 1) as j`.execute(engine.db);
    expect(rows).toEqual([{ j: '{"a":1}' }]);
  });

  it('runs a write that returns rows exactly once (RETURNING)', async () => {
    const before = (await sql<{ n: number }>`select n from counter where id = 1`.execute(engine.db)).rows[0].n;
    const { rows } = await sql<{ n: number }>`update counter set n = n + 1 where id = 1 returning n`.execute(engine.db);
    expect(rows).toEqual([{ n: before + 1 }]);
    expect((await sql<{ n: number }>`select n from counter where id = 1`.execute(engine.db)).rows).toEqual([
      { n: before + 1 },
    ]);
  });

  it("runs its worker threads below the event loop's priority (nice WORKER_NICE; the main thread stays at 0)", async () => {
    await sql`select 1`.execute(engine.db);
    const niceOf = (tid: string) =>
      Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const tasks = fs.readdirSync('/proc/self/task');
    expect(niceOf(String(process.pid))).toBe(0);
    // One writer and the readers of this engine at least (other suites' engines may add more).
    expect(tasks.filter((tid) => niceOf(tid) === WORKER_NICE).length).toBeGreaterThanOrEqual(
      engine.sqliteWorkers!.stats().workers,
    );
  });

  it('keeps a query prepared and still follows a schema change made by another connection (columns, blobs)', async () => {
    await sql`create table shape (id integer primary key, label text)`.execute(engine.db);
    await sql`insert into shape (id, label) values (1, 'one')`.execute(engine.db);
    const read = () => sql<Record<string, unknown>>`select * from shape`.execute(engine.db);
    // Several times, so that every reader thread has it prepared.
    for (let i = 0; i < 4; i++) expect((await read()).rows).toEqual([{ id: 1, label: 'one' }]);
    await sql`drop table shape`.execute(engine.db);
    await sql`create table shape (id integer primary key, content blob)`.execute(engine.db);
    await sql`insert into shape (id, content) values (2, x'0102')`.execute(engine.db);
    for (let i = 0; i < 4; i++) {
      const { rows } = await read();
      expect(rows).toEqual([{ id: 2, content: Buffer.from([1, 2]) }]);
      expect(Buffer.isBuffer(rows[0].content)).toBe(true);
    }
    // A prepared `select *` after another connection adds a column: `*` grows.
    await sql`create table widen (id integer primary key, label text)`.execute(engine.db);
    await sql`insert into widen (id, label) values (1, 'one')`.execute(engine.db);
    const readWiden = () => sql<Record<string, unknown>>`select * from widen`.execute(engine.db);
    for (let i = 0; i < 4; i++) expect((await readWiden()).rows).toEqual([{ id: 1, label: 'one' }]);
    await sql`alter table widen add column note text`.execute(engine.db);
    await sql`update widen set note = 'new'`.execute(engine.db);
    for (let i = 0; i < 4; i++) expect((await readWiden()).rows).toEqual([{ id: 1, label: 'one', note: 'new' }]);
  });

  it('hands over a result larger than WORKER_MESSAGE_ROWS whole and in order, blobs as Buffers in every part', async () => {
    const count = WORKER_MESSAGE_ROWS * 3 + 7;
    await sql`create table parts (id integer primary key, label text not null, content blob)`.execute(engine.db);
    await sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${count})
      insert into parts (id, label, content) select x, 'row ' || x, case when x % 1000 = 0 then x'00ff' end from c`.execute(
      engine.db,
    );
    const { rows } = await sql<{
      id: number;
      label: string;
      content: Buffer | null;
    }>`select id, label, content from parts order by id`.execute(engine.db);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(rows[count - 1].label).toBe(`row ${count}`);
    const blobs = rows.filter((r) => r.content !== null);
    expect(blobs.map((r) => r.id)).toEqual([1000, 2000, 3000]);
    expect(blobs.every((r) => Buffer.isBuffer(r.content) && r.content.equals(Buffer.from([0, 255])))).toBe(true);
    expect(engine.sqliteWorkers!.stats().busy).toBe(0);
  });
});

describe('SQLite worker that dies', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = temporarySqlite({ sqliteReaders: 1 });
    await migrate(engine);
  });
  afterAll(() => engine.close());

  it('fails the query that was on it, is replaced, and the next query works', async () => {
    const writer = engine.sqliteWorkers!.writer.slots[0];
    const first = writer.link!;
    // A WITH goes to the writer; the thread is ended from outside while the query runs (a crash).
    const running = slowCount(5_000_000).execute(engine.db);
    await new Promise((resolve) => setTimeout(resolve, 100));
    void first.terminate();
    await expect(running).rejects.toThrow(/SQLite worker thread stopped/);
    const { rows } = await sql<{ n: number }>`with x(n) as (select 1) select n from x`.execute(engine.db);
    expect(rows).toEqual([{ n: 1 }]);
    expect(writer.link).not.toBe(first);
    expect(engine.sqliteWorkers!.stats()).toMatchObject({ workers: 2, busy: 0 });
  });

  it('fails a transaction whose worker died instead of moving it to another worker', async () => {
    const trx = await engine.db.startTransaction().execute();
    await engine.sqliteWorkers!.writer.slots[0].link!.terminate();
    await expect(sql`update users set name = name`.execute(trx)).rejects.toThrow(/SQLite worker thread stopped/);
    await trx.rollback().execute();
    await expect(sql`update users set name = name`.execute(engine.db)).resolves.toBeDefined();
  });
});

describe('SQLite worker engine lifecycle', () => {
  it('serves a private in-memory database from its one writer thread, reads and streams included', async () => {
    const engine = openEngine('sqlite::memory:');
    try {
      await migrate(engine);
      await engine.db.insertInto('zones').values({ code: 'N', name: 'North' }).execute();
      const rows = [];
      for await (const row of engine.db.selectFrom('zones').selectAll().stream()) rows.push(row);
      expect(rows).toEqual([{ code: 'N', name: 'North' }]);
      expect(engine.sqliteWorkers!.stats().workers).toBe(1);
    } finally {
      await engine.close();
    }
  });

  it('stops every worker thread when the engine closes', async () => {
    const engine = temporarySqlite();
    await migrate(engine);
    const pool = engine.sqliteWorkers!;
    const links = [...pool.writer.slots, ...pool.readers.slots].map((slot) => slot.link!);
    expect(links.every((link) => link.alive)).toBe(true);
    await engine.close();
    expect(links.some((link) => link.alive)).toBe(false);
  });
});

describe('SQLite worker engine limits', () => {
  it('applies DB_BUSY_TIMEOUT_MS to every connection, writer and readers', async () => {
    const engine = temporarySqlite({ busyTimeoutMs: 1234 });
    try {
      await migrate(engine);
      const read = await sql<{ timeout: number }>`select timeout from pragma_busy_timeout`.execute(engine.db);
      expect(read.rows).toEqual([{ timeout: 1234 }]);
      const written = await engine.db
        .transaction()
        .execute((trx) => sql<{ timeout: number }>`select timeout from pragma_busy_timeout`.execute(trx));
      expect(written.rows).toEqual([{ timeout: 1234 }]);
    } finally {
      await engine.close();
    }
  });

  it('fails a request that waits for a worker longer than the acquire timeout, and serves again once one is free', async () => {
    const engine = temporarySqlite({ sqliteReaders: 1, acquireTimeoutMs: 300 });
    try {
      await migrate(engine);
      // A write transaction holds the only writer; a second write waits for it, then gives up.
      const trx = await engine.db.startTransaction().execute();
      await sql`update users set name = name`.execute(trx);
      const started = Date.now();
      await expect(sql`update users set name = name`.execute(engine.db)).rejects.toThrow(
        /timed out after 300 ms waiting for an SQLite worker/,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      // Reads go to the reader meanwhile.
      await expect(sql`select count(*) as n from users`.execute(engine.db)).resolves.toBeDefined();
      await trx.commit().execute();
      await expect(sql`update users set name = name`.execute(engine.db)).resolves.toBeDefined();
      expect(engine.sqliteWorkers!.stats().waiting).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('runs a short read on the writer while snapshots hold every reader; a snapshot never takes the writer', async () => {
    const engine = temporarySqlite({ sqliteReaders: 2, acquireTimeoutMs: 300 });
    try {
      await migrate(engine);
      const snapshot = () => engine.db.startTransaction().setAccessMode('read only').execute();
      const snapshots = [await snapshot(), await snapshot()];
      expect(engine.sqliteWorkers!.stats()).toMatchObject({ workers: 3, busy: 2 });
      // Both readers are lent: the short read runs on the writer, at once.
      const started = Date.now();
      await expect(sql`select count(*) as n from users`.execute(engine.db)).resolves.toEqual({ rows: [{ n: 0 }] });
      expect(Date.now() - started).toBeLessThan(250);
      // A third snapshot waits for a reader and gives up; the writer stays free for writes.
      await expect(snapshot()).rejects.toThrow(/timed out after 300 ms waiting for an SQLite worker/);
      await expect(sql`update users set name = name`.execute(engine.db)).resolves.toBeDefined();
      for (const trx of snapshots) await trx.commit().execute();
      expect(engine.sqliteWorkers!.stats()).toMatchObject({ busy: 0, waiting: 0 });
    } finally {
      await engine.close();
    }
  });

  it('hands the writer to a waiting write before a short read waiting to borrow it', async () => {
    const engine = temporarySqlite({ sqliteReaders: 1 });
    try {
      await migrate(engine);
      const snapshot = await engine.db.startTransaction().setAccessMode('read only').execute();
      const writing = await engine.db.startTransaction().execute();
      const done: string[] = [];
      // The short read waits first, for the reader or the writer; the write waits for the writer.
      const read = sql`select count(*) as n from users`.execute(engine.db).then(() => done.push('read'));
      const write = sql`update users set name = name`.execute(engine.db).then(() => done.push('write'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(engine.sqliteWorkers!.stats().waiting).toBe(2);
      await writing.commit().execute();
      await Promise.all([read, write]);
      expect(done).toEqual(['write', 'read']);
      await snapshot.commit().execute();
    } finally {
      await engine.close();
    }
  });
});
