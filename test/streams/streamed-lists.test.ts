/**
 * The large lists streamed (docs/behaviour.md, "Large answers"): getCollectionStatements, getPCNList
 * and ActivityReportAndComplaints written while their rows are read, byte for byte the answer the
 * whole-envelope encoder gives for the same rows (one that ends before its first chunk whole, with its
 * Content-Length); compressed only when Accept-Encoding asks; closed
 * unread by SOAP; and a client that hangs up stops the query at once, frees its connection and is
 * logged as aborted. On both engines, through the real server on a real port.
 */
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { successEnvelope } from '../../src/asmx/http';
import type { EngineKind } from '../../src/db/engine';
import type { Operation } from '../../src/operations/types';
import { getCollectionStatements } from '../../src/collections/operations';
import { getPCNList } from '../../src/pcn/operations';
import { activityReportAndComplaints } from '../../src/activities/operations';
import { SMALL_LIST_ROWS } from '../../src/tunables';
import { ENGINES } from '../support/engines';
import { MAIN_PATH } from '../support/interface-table';
import { runOperation } from '../support/operation';
import { insertListFixture, receiptRows } from './list-fixture';
import {
  busyConnections,
  eventually,
  getInParts,
  getRaw,
  hangUpAfter,
  startStreamApp,
  type PartsAnswer,
  type StreamApp,
} from './stream-support';

const CASES: ReadonlyArray<readonly [Operation, Record<string, string>]> = [
  [getCollectionStatements, {}],
  [getCollectionStatements, { SalesOfficer: 'so01' }],
  [getCollectionStatements, { FromDate: '2026-01-10', ToDate: '20/01/2026', SortBy: 'Amount', SortDirection: 'DESC' }],
  [getCollectionStatements, { SortBy: 'CustomerName' }],
  [getCollectionStatements, { FromCustomer: 'C004', SortBy: 'Reference', SortDirection: 'desc' }],
  [getCollectionStatements, { SalesOfficer: 'NOBODY' }],
  [getPCNList, {}],
  [getPCNList, { PaymentType: 'pdc', SalesOfficer: 'SO03' }],
  [getPCNList, { Customer: 'C999' }],
  [activityReportAndComplaints, {}],
  [activityReportAndComplaints, { SalesOfficer: 'SO02', FromDate: '2026-01-05' }],
  [activityReportAndComplaints, { Username: 'am.north', ToDate: '2026-01-20' }],
];

const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe.each(ENGINES)('streamed lists: %s', (kind: EngineKind) => {
  let t: StreamApp;
  beforeAll(async () => {
    t = await startStreamApp(kind, (engine) =>
      insertListFixture(engine.db, { receipts: 600, cheques: 300, activities: 240, complaints: 160 }),
    );
  });
  afterAll(() => t.stop());

  it.each(CASES.map(([op, fields]) => [op.name, JSON.stringify(fields), op, fields] as const))(
    '%s %s: the streamed bytes are the whole envelope of the same rows',
    async (_name, _label, op, fields) => {
      const expected = JSON.stringify(successEnvelope(await runOperation(op, t.engine, fields)));
      const res = await getRaw(t.port, `${MAIN_PATH}/${op.name}?${query(fields)}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body.toString('utf8')).toBe(expected);
      expect(busyConnections(t.engine)).toBe(0);
    },
  );

  it.each([
    ["one officer's report for a day", { SalesOfficer: 'SO02', FromDate: '2026-01-05', ToDate: '2026-01-05' }],
    ["a list of nobody's", { SalesOfficer: 'NOBODY' }],
  ])(
    'answers a streamed answer that ends before its first chunk (%s) whole, with its Content-Length',
    async (_label, fields) => {
      const expected = JSON.stringify(
        successEnvelope(await runOperation(activityReportAndComplaints, t.engine, fields)),
      );
      const res = await getRaw(t.port, `${MAIN_PATH}/ActivityReportAndComplaints?${query(fields)}`);
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(res.body.length));
      expect(res.body.toString('utf8')).toBe(expected);
    },
  );

  it('writes a list with Transfer-Encoding chunked (streamed, no Content-Length) and Count, Data, Totals in order', async () => {
    const res = await getRaw(t.port, `${MAIN_PATH}/getCollectionStatements`);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    const body = JSON.parse(res.body.toString('utf8'));
    expect(Object.keys(body)).toEqual(['Success', 'Message', 'Count', 'Data', 'Totals']);
    expect(body.Count).toBe(600);
    expect(body.Data).toHaveLength(600);
    expect(body.Totals.Count).toBe(600);
  });

  describe('compression', () => {
    const path = `${MAIN_PATH}/getCollectionStatements`;
    let identity: Buffer;
    beforeAll(async () => {
      identity = (await getRaw(t.port, path)).body;
    });

    it('answers gzip when Accept-Encoding asks for gzip, the same bytes once inflated', async () => {
      const res = await getRaw(t.port, path, { 'Accept-Encoding': 'gzip' });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.body.length).toBeLessThan(identity.length / 3);
      expect(zlib.gunzipSync(res.body).equals(identity)).toBe(true);
    });

    it('answers br when Accept-Encoding prefers br', async () => {
      const res = await getRaw(t.port, path, { 'Accept-Encoding': 'br;q=1.0, gzip;q=0.5' });
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.body).equals(identity)).toBe(true);
    });

    it('never compresses without Accept-Encoding, or when it asks for identity only', async () => {
      for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'gzip;q=0, br;q=0' }]) {
        const res = await getRaw(t.port, path, headers);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.body.equals(identity)).toBe(true);
      }
    });

    it('compresses a large document (the WSDL) too, and keeps the Content-Length of a small SOAP answer', async () => {
      const wsdl = await getRaw(t.port, `${MAIN_PATH}?wsdl`);
      const gzipped = await getRaw(t.port, `${MAIN_PATH}?wsdl`, { 'Accept-Encoding': 'gzip' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gzipped.body).equals(wsdl.body)).toBe(true);
      const envelope =
        '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getPCNList xmlns="http://tempuri.org/" /></soap:Body></soap:Envelope>';
      const soap = await getRaw(
        t.port,
        MAIN_PATH,
        {
          'Content-Type': 'text/xml; charset=utf-8',
          SOAPAction: '"http://tempuri.org/getPCNList"',
          'Accept-Encoding': 'gzip',
        },
        'POST',
        envelope,
      );
      expect(soap.status).toBe(200);
      expect(soap.headers['content-encoding']).toBeUndefined();
      expect(soap.headers['content-length']).toBe(String(soap.body.length));
      expect(soap.body.toString('utf8')).toContain('<getPCNListResponse xmlns="http://tempuri.org/" />');
    });
  });

  if (kind === 'postgres') {
    // SQLite's readers cannot be held up (WAL); a PostgreSQL table lock holds the count where it is.
    it('sends its first bytes before the rows are counted: a count held up by a lock does not hold them up', async () => {
      const expected = JSON.stringify(successEnvelope(await runOperation(getCollectionStatements, t.engine, {})));
      const lock = await t.engine.db.startTransaction().execute();
      let answer: PartsAnswer | undefined;
      try {
        await sql`lock table receipts in access exclusive mode`.execute(lock);
        answer = getInParts(t.port, `${MAIN_PATH}/getCollectionStatements`);
        const waited = new Promise<string>((resolve) => setTimeout(() => resolve('nothing within 5 s'), 5000));
        expect(await Promise.race([answer.first, waited])).toBe('{"Success":true,"Message":""');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(answer.received()).toBe('{"Success":true,"Message":""');
      } finally {
        await lock.rollback().execute();
      }
      expect(await answer.whole).toBe(expected);
      await eventually(() => busyConnections(t.engine) === 0, 2000, 'the connection being freed');
    });
  }

  if (kind === 'postgres') {
    it("cuts the connection when it fails after its first bytes: the count's connection killed while a lock holds it up", async () => {
      const lock = await t.engine.db.startTransaction().execute();
      let answer: PartsAnswer | undefined;
      try {
        await sql`lock table receipts in access exclusive mode`.execute(lock);
        answer = getInParts(t.port, `${MAIN_PATH}/getCollectionStatements`);
        expect(await answer.first).toBe('{"Success":true,"Message":""');
        // The count waits for the lock on a connection of the server's pool: end that connection.
        // Up to ten seconds or more: on a loaded machine the count can be slow to reach the lock.
        // A transaction sees pg_stat_activity as it first read it, so each look clears that copy.
        let killed = 0;
        for (let tries = 0; killed === 0 && tries < 1000; tries++) {
          await sql`select pg_stat_clear_snapshot()`.execute(lock);
          const { rows } = await sql<{ pid: number }>`select pg_terminate_backend(pid) as pid from pg_stat_activity
            where pid <> pg_backend_pid() and wait_event_type = 'Lock' and query ilike '%count(%receipts%'`.execute(
            lock,
          );
          killed = rows.length;
          if (killed === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(killed).toBe(1);
        await expect(answer.whole).rejects.toThrow(/^(aborted|socket hang up)$/);
        expect(answer.received()).toBe('{"Success":true,"Message":""');
      } finally {
        await lock.rollback().execute();
      }
      await eventually(() => busyConnections(t.engine) === 0, 2000, 'the connection being freed');
    });
  }

  it('answers SOAP without reading the list, and lets go of the snapshot at once', async () => {
    const envelope =
      '<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body><getCollectionStatements xmlns="http://tempuri.org/" /></soap12:Body></soap12:Envelope>';
    const res = await getRaw(
      t.port,
      MAIN_PATH,
      { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      'POST',
      envelope,
    );
    expect(res.status).toBe(200);
    expect(res.body.toString('utf8')).toContain('<getCollectionStatementsResponse xmlns="http://tempuri.org/" />');
    expect(busyConnections(t.engine)).toBe(0);
  });
});

describe.each(ENGINES)('getPCNList, short or long: %s', (kind: EngineKind) => {
  const many = SMALL_LIST_ROWS + 150;
  let t: StreamApp;
  beforeAll(async () => {
    t = await startStreamApp(kind, (engine) =>
      insertListFixture(engine.db, { receipts: 0, cheques: many, activities: 0, complaints: 0 }),
    );
  });
  afterAll(() => t.stop());

  it.each([
    ['one officer', { SalesOfficer: 'SO01' }],
    ['one payment type', { PaymentType: 'ADVANCE' }],
  ])(
    'answers a list of at most SMALL_LIST_ROWS cheques (%s) whole, with its Content-Length',
    async (_label, fields) => {
      const result = await runOperation(getPCNList, t.engine, fields);
      expect(Array.isArray(result.data) && result.data.length).toBeLessThanOrEqual(SMALL_LIST_ROWS);
      const res = await getRaw(t.port, `${MAIN_PATH}/getPCNList?${query(fields)}`);
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.body.toString('utf8')).toBe(JSON.stringify(successEnvelope(result)));
    },
  );

  it('streams a longer list (chunked), the same bytes as the whole envelope', async () => {
    const result = await runOperation(getPCNList, t.engine, {});
    expect(Array.isArray(result.data) && result.data.length).toBe(many);
    const res = await getRaw(t.port, `${MAIN_PATH}/getPCNList`);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body.toString('utf8')).toBe(JSON.stringify(successEnvelope(result)));
    expect(busyConnections(t.engine)).toBe(0);
  });
});

describe.each(ENGINES)('a client that hangs up during a large list: %s', (kind: EngineKind) => {
  let t: StreamApp;
  const ROWS = 60_000;
  beforeAll(async () => {
    t = await startStreamApp(kind, async (engine) => {
      await insertListFixture(engine.db, { receipts: 0, cheques: 0, activities: 0, complaints: 0 });
      const rows = receiptRows(ROWS, 'BIG');
      for (let i = 0; i < rows.length; i += 1000)
        await engine.db
          .insertInto('receipts')
          .values(rows.slice(i, i + 1000))
          .execute();
    });
  }, 120_000);
  afterAll(() => t.stop());

  it('stops the query, frees the connection at once and logs the request as aborted', async () => {
    const whole = (await getRaw(t.port, `${MAIN_PATH}/getCollectionStatements`)).body.length;
    const received = await hangUpAfter(t.port, `${MAIN_PATH}/getCollectionStatements`, 64 * 1024, 'hang-up-1');
    expect(received).toBeLessThan(whole / 4);
    const freedIn = await eventually(() => busyConnections(t.engine) === 0, 2000, 'the connection being freed');
    expect(freedIn).toBeLessThan(2000);
    const line = await t.log.find((l) => l.reqId === 'hang-up-1');
    expect(line).toMatchObject({
      operation: 'getCollectionStatements',
      binding: 'httpget',
      outcome: 'aborted',
      msg: 'request aborted',
    });
    // The freed connection serves the next request in full.
    const next = await getRaw(t.port, `${MAIN_PATH}/getPCNList`);
    expect(next.status).toBe(200);
  });

  it('streams the typed v2 answer the same way, and stops it the same way (docs/v2.md)', async () => {
    const v2 = '/API/v2/MobileAppWebService.asmx/getCollectionStatements';
    const whole = await getRaw(t.port, v2);
    expect(whole.headers['transfer-encoding']).toBe('chunked');
    expect(whole.body.toString('utf8')).toContain(`<Count>${ROWS}</Count>`);
    expect(whole.body.toString('utf8').split('<CollectionStatement>').length - 1).toBe(ROWS);
    const received = await hangUpAfter(t.port, v2, 64 * 1024, 'hang-up-v2');
    expect(received).toBeLessThan(whole.body.length / 4);
    await eventually(() => busyConnections(t.engine) === 0, 2000, 'the connection being freed');
    const line = await t.log.find((l) => l.reqId === 'hang-up-v2');
    expect(line).toMatchObject({
      operation: 'getCollectionStatements',
      binding: 'httpget',
      outcome: 'aborted',
      msg: 'request aborted',
    });
  });

  it('does the same while compressing: a gzip client that hangs up frees the connection and is logged as aborted', async () => {
    const gzip = { 'Accept-Encoding': 'gzip' };
    const whole = (await getRaw(t.port, `${MAIN_PATH}/getCollectionStatements`, gzip)).body.length;
    const received = await hangUpAfter(t.port, `${MAIN_PATH}/getCollectionStatements`, 16 * 1024, 'hang-up-gzip', gzip);
    expect(received).toBeLessThan(whole / 2);
    await eventually(() => busyConnections(t.engine) === 0, 2000, 'the connection being freed');
    const line = await t.log.find((l) => l.reqId === 'hang-up-gzip');
    expect(line).toMatchObject({ operation: 'getCollectionStatements', outcome: 'aborted' });
  });
});

describe.each(ENGINES)('a streamed list and the answer cache: %s', (kind: EngineKind) => {
  const path = `${MAIN_PATH}/getCollectionStatements`;
  const apps: StreamApp[] = [];
  afterAll(() => Promise.all(apps.map((app) => app.stop())));
  const start = async (cacheMb: string) => {
    const app = await startStreamApp(
      kind,
      (engine) => insertListFixture(engine.db, { receipts: 2000, cheques: 0, activities: 0, complaints: 0 }),
      { ANSWER_CACHE_MB: cacheMb },
    );
    apps.push(app);
    return app;
  };

  it('keeps a streamed answer within the entry limit: an equal request gets the same bytes in one write', async () => {
    const t = await start('64');
    const first = await getRaw(t.port, path);
    expect(first.headers['transfer-encoding']).toBe('chunked');
    const again = await getRaw(t.port, path);
    expect(again.headers['transfer-encoding']).toBeUndefined();
    expect(again.headers['content-length']).toBe(String(first.body.length));
    expect(again.body.equals(first.body)).toBe(true);
  });

  it('gathers an answer once while equal requests run together, and keeps it', async () => {
    const t = await start('64');
    const together = await Promise.all([getRaw(t.port, path), getRaw(t.port, path), getRaw(t.port, path)]);
    for (const answer of together) expect(answer.body.equals(together[0].body)).toBe(true);
    const again = await getRaw(t.port, path);
    expect(again.headers['transfer-encoding']).toBeUndefined();
    expect(again.body.equals(together[0].body)).toBe(true);
  });

  it('leaves the gathering to the next request when a client leaves before its answer is whole', async () => {
    const t = await start('64');
    await hangUpAfter(t.port, path, 1, 'leaves-early');
    await eventually(() => busyConnections(t.engine) === 0, 5000, 'the left answer let go of the database');
    // The next request gathers and keeps the answer (unless the left one was whole already, and kept).
    const next = await getRaw(t.port, path);
    const after = await getRaw(t.port, path);
    expect(next.headers['transfer-encoding'] === undefined || after.headers['transfer-encoding'] === undefined).toBe(
      true,
    );
    expect(after.body.equals(next.body)).toBe(true);
  });

  it('streams anew an answer larger than the entry limit (a quarter of ANSWER_CACHE_MB)', async () => {
    const t = await start('1');
    const first = await getRaw(t.port, path);
    expect(first.body.length).toBeGreaterThan(256 * 1024);
    const again = await getRaw(t.port, path);
    expect(again.headers['transfer-encoding']).toBe('chunked');
    expect(again.body.equals(first.body)).toBe(true);
  });
});

describe('the event loop while SQLite works', () => {
  let t: StreamApp;
  beforeAll(async () => {
    t = await startStreamApp('sqlite', (engine) =>
      insertListFixture(engine.db, { receipts: 10, cheques: 10, activities: 10, complaints: 10 }),
    );
  });
  afterAll(() => t.stop());

  it('answers /health within 500 ms while a multi-second query runs on a worker', async () => {
    let done = false;
    const started = Date.now();
    const slow =
      sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 15000000) select count(*) as n from c`
        .execute(t.engine.db)
        .then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const probes: number[] = [];
    while (!done && probes.length < 5) {
      const before = Date.now();
      const res = await getRaw(t.port, '/health');
      expect(res.status).toBe(200);
      if (!done) probes.push(Date.now() - before);
    }
    await slow;
    // The query ran for seconds, and /health was asked (and answered quickly) while it ran.
    expect(Date.now() - started).toBeGreaterThan(1000);
    expect(probes.length).toBeGreaterThan(0);
    expect(Math.max(...probes)).toBeLessThan(500);
  });
});
