/**
 * The answer cache (docs/operations.md, "Answer cache"), through the real app on both engines: an equal
 * read on unchanged data is answered from it with the same bytes, and nothing it keeps is ever served
 * once the data changed, whoever wrote (a write through the service, another connection, another
 * process), nor to a caller of another scope, nor for another month than the one "now" stood for.
 */
import request from 'supertest';
import { UNVERSIONED_TABLES } from '../../src/db/table-versions';
import { hashPassword } from '../../src/auth/password-hash';
import { storePassword } from '../../src/auth/credential-store';
import { startTestApp, type TestApp } from '../support/app';
import { commitElsewhere, ENGINES } from '../support/engines';
import { insertMasterData, warrantyFields } from '../support/fixture';
import { MAIN_PATH } from '../support/interface-table';
import { basic } from '../auth/auth-support';
import { keptLookup, lookups, METRICS_ADMIN_PASSWORD } from '../support/answer-cache';
import { CHEQUES } from '../support/cheques';

const PCN_LIST = `${MAIN_PATH}/getPCNList`;

const ids = (body: string) => (JSON.parse(body) as { Data: { PDCID: string }[] }).Data.map((row) => row.PDCID);

describe.each(ENGINES)('answer cache: %s', (kind) => {
  let t: TestApp;
  let now = new Date('2026-03-20T10:00:00Z');
  beforeAll(async () => {
    t = await startTestApp({ kind, masterData: true, clock: { now: () => now } });
    await t.engine.db.insertInto('pcn').values(CHEQUES).execute();
  });
  afterAll(() => t.close());

  it('answers an equal read on unchanged data from the cache, byte for byte, whatever the spelling of the request', async () => {
    const first = await keptLookup(t, `${PCN_LIST}?SalesOfficer=SO01`);
    expect(first.hit).toBe(false);
    expect(ids(first.body)).toEqual(['PDC005', 'PDC002', 'PDC001']);
    const again = await keptLookup(t, `${PCN_LIST}?SalesOfficer=SO01`);
    expect(again).toEqual({ body: first.body, hit: true });
    // Other names' case, an unknown name, another binding: the same checked request, the same answer.
    expect(await keptLookup(t, `${PCN_LIST}?salesofficer=SO01&Unknown=1`)).toEqual({ body: first.body, hit: true });
    const posted = await request(t.app).post(PCN_LIST).type('form').send({ SALESOFFICER: 'SO01' });
    expect(posted.text).toBe(first.body);
    // Another filter is another answer.
    const other = await keptLookup(t, `${PCN_LIST}?SalesOfficer=SO02`);
    expect(other.hit).toBe(false);
    expect(ids(other.body)).toEqual(['PDC004']);
  });

  it('never serves a kept answer after a write through the service', async () => {
    const path = `${MAIN_PATH}/SyncWarrantyReqList?SalesOfficer=SO01`;
    const before = await keptLookup(t, path);
    expect((await keptLookup(t, path)).hit).toBe(true);
    const created = await request(t.app).get(`${MAIN_PATH}/CreateWarrantyRequest`).query(warrantyFields('cache-1'));
    expect(created.body).toMatchObject({ Success: true });
    const after = await keptLookup(t, path);
    expect(after.hit).toBe(false);
    expect(after.body).not.toBe(before.body);
    expect(after.body).toContain('SN-cache-1');
  });

  it('never serves a kept answer after a commit by another connection or process', async () => {
    const path = `${PCN_LIST}?Customer=C004`;
    expect(JSON.parse((await keptLookup(t, path)).body)).toMatchObject({ Data: [{ PDCID: 'PDC003', BankName: null }] });
    expect((await keptLookup(t, path)).hit).toBe(true);
    await commitElsewhere(t.engine, 'update {pcn} set bank_name = ? where pdc_id = ?', ['Canara Bank', 'PDC003']);
    const after = await keptLookup(t, path);
    expect(after.hit).toBe(false);
    expect(JSON.parse(after.body)).toMatchObject({ Data: [{ PDCID: 'PDC003', BankName: 'Canara Bank' }] });
  });

  it('keeps an answer across writes to tables it was not read from, and forgets it at a write to any it was', async () => {
    const path = `${PCN_LIST}?Customer=C002`;
    const first = await keptLookup(t, path);
    expect(JSON.parse(first.body)).toMatchObject({ Data: [{ PDCID: 'PDC005', CustomerName: 'Bhatia Pumps' }] });
    // A warranty request written through the service: the cheques did not change.
    expect(
      (await request(t.app).get(`${MAIN_PATH}/CreateWarrantyRequest`).query(warrantyFields('cache-2'))).body,
    ).toMatchObject({ Success: true });
    expect(await keptLookup(t, path)).toEqual({ body: first.body, hit: true });
    // The customer's name comes from a table joined to the cheques: renamed elsewhere, read anew.
    await commitElsewhere(t.engine, 'update {customers} set name = ? where code = ?', ['Bhatia & Sons', 'C002']);
    const renamed = await keptLookup(t, path);
    expect(renamed.hit).toBe(false);
    expect(JSON.parse(renamed.body)).toMatchObject({ Data: [{ PDCID: 'PDC005', CustomerName: 'Bhatia & Sons' }] });
    expect((await keptLookup(t, path)).hit).toBe(true);
  });

  it('reads the dashboard anew after a warranty request: it counts the open ones', async () => {
    const path = `${MAIN_PATH}/getSalesReportStats`;
    const before = JSON.parse((await keptLookup(t, path)).body) as { Data: { OpenWarrantyRequests: number } };
    expect(
      (await request(t.app).get(`${MAIN_PATH}/CreateWarrantyRequest`).query(warrantyFields('cache-3'))).body,
    ).toMatchObject({ Success: true });
    const after = await keptLookup(t, path);
    expect(after.hit).toBe(false);
    expect(JSON.parse(after.body)).toMatchObject({
      Data: { OpenWarrantyRequests: before.Data.OpenWarrantyRequests + 1 },
    });
  });

  it("versions every table but the credentials and the migrator's own, and a commit anywhere changes the written table's version alone", async () => {
    const versions = await t.engine.dataVersion!.read();
    const unversioned = [...versions]
      .filter(([, version]) => version === null)
      .map(([table]) => table)
      .sort();
    expect(unversioned).toEqual(
      [...UNVERSIONED_TABLES, 'kysely_migration', 'kysely_migration_lock', 'table_versions'].sort(),
    );
    await commitElsewhere(t.engine, 'delete from {complaints} where complaint_no = ?', ['none such']);
    await commitElsewhere(t.engine, 'update {zones} set name = name', []);
    const after = await t.engine.dataVersion!.read();
    const changed = [...after].filter(([table, version]) => versions.get(table) !== version).map(([table]) => table);
    // A statement that changed no row changes no version on SQLite (row triggers), and does on PostgreSQL (statement triggers).
    expect(changed.sort()).toEqual(kind === 'sqlite' ? ['zones'] : ['complaints', 'zones']);
  });

  it('keeps the answer of the month "now" stands for under that month: the next month is read anew', async () => {
    const path = `${MAIN_PATH}/getOpeningBalance?CustomerIds=C001`;
    const march = await keptLookup(t, path);
    expect(JSON.parse(march.body)).toMatchObject({ Data: [{ CustomerCode: 'C001', Month: 3, Year: 2026 }] });
    expect((await keptLookup(t, path)).hit).toBe(true);
    // The explicit month "now" stood for is the same checked request.
    expect(await keptLookup(t, `${path}&Month=3&Year=2026`)).toEqual({ body: march.body, hit: true });
    now = new Date('2026-04-02T08:00:00Z');
    const april = await keptLookup(t, path);
    expect(april.hit).toBe(false);
    expect(JSON.parse(april.body)).toMatchObject({ Data: [{ CustomerCode: 'C001', Month: 4, Year: 2026 }] });
  });

  it('keeps failures out: a refused read is checked every time', async () => {
    const res = await request(t.app).get(`${PCN_LIST}?PaymentType=LATER`);
    expect(res.body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: 'PaymentType' });
    const { hit, miss } = await lookups(t);
    await request(t.app).get(`${PCN_LIST}?PaymentType=LATER`);
    expect(await lookups(t)).toEqual({ hit, miss });
  });
});

describe.each(ENGINES)('answer cache with authentication: %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ kind, env: { AUTH_MODE: 'basic' } });
    await insertMasterData(t.engine.db);
    await t.engine.db.insertInto('pcn').values(CHEQUES).execute();
    for (const [id, password] of [
      ['AM01', 'area-secret'],
      ['SO01', 'officer-secret'],
      ['ADM001', METRICS_ADMIN_PASSWORD],
    ]) {
      await storePassword(t.engine.db, id, await hashPassword(password), new Date().toISOString());
    }
  });
  afterAll(() => t.close());

  it("gives each caller the answer of their own scope: a manager's kept list never reaches an officer", async () => {
    const manager = await keptLookup(t, PCN_LIST, basic('am.north', 'area-secret'));
    expect(ids(manager.body)).toEqual(['PDC005', 'PDC002', 'PDC001', 'PDC004']);
    expect((await keptLookup(t, PCN_LIST, basic('am.north', 'area-secret'))).hit).toBe(true);
    const officer = await keptLookup(t, PCN_LIST, basic('so.one', 'officer-secret'));
    expect(officer.hit).toBe(false);
    expect(ids(officer.body)).toEqual(['PDC005', 'PDC002', 'PDC001']);
  });
});

describe('answer cache turned off (ANSWER_CACHE_MB=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ANSWER_CACHE_MB: '0' }, masterData: true });
    await t.engine.db.insertInto('pcn').values(CHEQUES).execute();
  });
  afterAll(() => t.close());

  it('reads every request anew', async () => {
    const first = await request(t.app).get(`${PCN_LIST}?SalesOfficer=SO01`);
    const second = await request(t.app).get(`${PCN_LIST}?SalesOfficer=SO01`);
    expect(second.text).toBe(first.text);
    expect(await lookups(t)).toEqual({ hit: 0, miss: 0 });
  });
});
