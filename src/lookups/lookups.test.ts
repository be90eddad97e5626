import type { Engine } from '../db/engine';
import type { UsersTable } from '../db/schema';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import {
  CUSTOMERS,
  CUSTOMER_PROFIT_CENTERS,
  PROFIT_CENTERS,
  USERS,
  insertMasterData,
} from '../../test/support/fixture';
import { runOperation } from '../../test/support/operation';
import { fillAreaManagers, fillProfitCenterForCustomer } from './operations';
import { storedCustomerCode, storedUserId } from '../operations/master-codes';
import { principal, refusalShape, seesOfficer } from '../users/test-fixture';

// On top of the fixture's AM01 (Arun North, under ZM01) and AM02 (Anita South, under ZM02):
// AM03 has left (inactive) with SO05 still reporting to them; AM04 and AM05 share a name, so the id
// breaks the tie; SO06 reports straight to a zonal manager.
const EXTRA_USERS: UsersTable[] = [
  {
    id: 'AM03',
    username: 'am.retired',
    name: 'Ajay Retired',
    role: 'AM',
    manager_id: 'ZM01',
    zone_code: 'N',
    active: 0,
  },
  { id: 'AM05', username: 'am.bela.s', name: 'Bela Rao', role: 'AM', manager_id: 'ZM02', zone_code: 'S', active: 1 },
  { id: 'AM04', username: 'am.bela.n', name: 'Bela Rao', role: 'AM', manager_id: 'ZM01', zone_code: 'N', active: 1 },
  { id: 'SO05', username: 'so.five', name: 'Suresh Five', role: 'SO', manager_id: 'AM03', zone_code: 'N', active: 1 },
  { id: 'SO06', username: 'so.six', name: 'Shalini Six', role: 'SO', manager_id: 'ZM02', zone_code: 'S', active: 1 },
];
const ALL_USERS: readonly UsersTable[] = [...USERS, ...EXTRA_USERS];

/** The fixture's master data with the extra users above. */
async function insertLookupData(engine: Engine): Promise<void> {
  await insertMasterData(engine.db);
  for (const user of EXTRA_USERS) await engine.db.insertInto('users').values(user).execute();
}

/** Expected rows: the active area managers among `ids` (all when undefined), by name then id. */
function managers(ids?: string[]) {
  return ALL_USERS.filter((u) => u.role === 'AM' && u.active === 1 && (ids === undefined || ids.includes(u.id)))
    .sort((a, b) => (a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.id < b.id ? -1 : 1))
    .map((u) => ({ Id: u.id, Username: u.username, Name: u.name, ZoneCode: u.zone_code }));
}

describe.each(ENGINES)('lookups: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertLookupData(engine),
  );

  describe('FillAreaManagers', () => {
    const run = (fields: Record<string, string> = {}) => runOperation(fillAreaManagers, engine, fields);

    it('offers every active area manager, by name then id, to the admin and to an empty username', async () => {
      const all = managers();
      expect(all.map((m) => m.Id)).toEqual(['AM02', 'AM01', 'AM04', 'AM05']);
      expect((await run()).data).toEqual(all);
      expect((await run({ username: '' })).data).toEqual(all);
      expect((await run({ username: 'admin' })).data).toEqual(all);
      expect((await run({ username: 'ADMIN' })).data).toEqual(all);
    });

    it('offers a zonal manager the area managers below them', async () => {
      expect((await run({ username: 'zm.north' })).data).toEqual(managers(['AM01', 'AM04']));
      expect((await run({ username: 'zm.south' })).data).toEqual(managers(['AM02', 'AM05']));
    });

    it('offers an area manager themselves, and an inactive one nothing', async () => {
      expect((await run({ username: 'am.south' })).data).toEqual(managers(['AM02']));
      expect((await run({ username: 'am.retired' })).data).toEqual([]);
    });

    it('offers a sales officer their own area manager', async () => {
      expect((await run({ username: 'so.one' })).data).toEqual(managers(['AM01']));
      expect((await run({ username: 'so.three' })).data).toEqual(managers(['AM02']));
      // Reporting to a manager who has left, or to a zonal manager: no area manager to offer.
      expect((await run({ username: 'so.five' })).data).toEqual([]);
      expect((await run({ username: 'so.six' })).data).toEqual([]);
    });

    it('matches the username without regard to case, and also the employee code', async () => {
      expect((await run({ username: 'ZM.North' })).data).toEqual(managers(['AM01', 'AM04']));
      expect((await run({ username: 'so03' })).data).toEqual(managers(['AM02']));
    });

    it('answers NOT_FOUND for an unknown user, naming the parameter', async () => {
      await expect(run({ username: 'nobody' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        field: 'username',
        message: expect.stringMatching(/^username: 'nobody'/),
      });
    });
  });

  describe('FillProfitCenterForCustomer', () => {
    const run = (fields: Record<string, string> = {}) => runOperation(fillProfitCenterForCustomer, engine, fields);

    /** Expected rows from the fixture: the customer's profit centers by code. */
    function centersOf(code: string) {
      const codes = CUSTOMER_PROFIT_CENTERS.filter((l) => l.customer_code === code).map((l) => l.profit_center_code);
      return PROFIT_CENTERS.filter((p) => codes.includes(p.code))
        .sort((a, b) => (a.code < b.code ? -1 : 1))
        .map((p) => ({ Code: p.code, Name: p.name }));
    }

    it("lists a customer's profit centers by code, any case", async () => {
      expect((await run({ CustomerCode: 'c001' })).data).toEqual(centersOf('C001'));
      expect((await run({ CustomerCode: 'C001' })).data).toEqual([
        { Code: 'PC1', Name: 'Pumps Division' },
        { Code: 'PC2', Name: 'Motors Division' },
      ]);
      expect((await run({ CustomerCode: 'C003' })).data).toEqual(centersOf('C003'));
    });

    it('is an empty list for a customer without profit centers, or an unknown customer', async () => {
      expect((await run({ CustomerCode: 'C005' })).data).toEqual([]);
      expect((await run({ CustomerCode: 'C999' })).data).toEqual([]);
    });

    it('lists every profit center when no customer is given', async () => {
      const all = PROFIT_CENTERS.map((p) => ({ Code: p.code, Name: p.name })).sort((a, b) =>
        a.Code < b.Code ? -1 : 1,
      );
      expect((await run()).data).toEqual(all);
      expect((await run({ CustomerCode: ' ' })).data).toEqual(all);
    });
  });

  describe('stored spellings of codes', () => {
    it('resolves customer codes and user ids without regard to case', async () => {
      expect(await storedCustomerCode(engine.db, ' c004 ')).toBe('C004');
      expect(await storedCustomerCode(engine.db, 'C999')).toBeUndefined();
      expect(await storedUserId(engine.db, 'so02')).toBe('SO02');
      expect(await storedUserId(engine.db, 'so.two')).toBeUndefined();
    });
  });
});

describe.each(ENGINES)('lookups on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('answers the empty calls with empty lists', async () => {
    expect(await runOperation(fillAreaManagers, engine)).toEqual({ data: [] });
    expect(await runOperation(fillProfitCenterForCustomer, engine)).toEqual({ data: [] });
    expect(await runOperation(fillProfitCenterForCustomer, engine, { CustomerCode: 'C001' })).toEqual({ data: [] });
  });

  it('still knows no user', async () => {
    await expect(runOperation(fillAreaManagers, engine, { username: 'admin' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      field: 'username',
    });
  });
});

describe.each(ENGINES)('lookups with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertLookupData(engine),
  );

  describe('FillAreaManagers', () => {
    const runAs = async (id: string, fields: Record<string, string> = {}) =>
      (await runOperation(fillAreaManagers, engine, fields, { principal: principal(id, ALL_USERS) })).data;

    it("answers an empty username with the user's own list: an officer their manager, not every area manager", async () => {
      expect(await runAs('SO01')).toEqual(managers(['AM01']));
      expect(await runAs('SO03', { username: ' ' })).toEqual(managers(['AM02']));
      expect(await runAs('AM02')).toEqual(managers(['AM02']));
      expect(await runAs('ZM01')).toEqual(managers(['AM01', 'AM04']));
      expect(await runAs('ADM001')).toEqual(managers());
    });

    it('answers for another user within the scope (themselves or below)', async () => {
      expect(await runAs('SO01', { username: 'SO.ONE' })).toEqual(managers(['AM01']));
      expect(await runAs('ZM02', { username: 'so.six' })).toEqual([]);
      expect(await runAs('ZM01', { username: 'am.north' })).toEqual(managers(['AM01']));
      expect(await runAs('ADM001', { username: 'zm.south' })).toEqual(managers(['AM02', 'AM05']));
    });

    it('answers a user outside the scope as an unknown one (NOT_FOUND naming username)', async () => {
      expect(seesOfficer('SO01', 'SO02', ALL_USERS)).toBe(false);
      const refused = async (id: string, username: string) =>
        refusalShape(await runAs(id, { username }).catch((err: unknown) => err), username);
      const unknown = await refused('SO01', 'nobody');
      expect(unknown).toMatchObject({ code: 'NOT_FOUND', field: 'username' });
      for (const [id, username] of [
        ['SO01', 'so.two'],
        ['SO01', 'admin'],
        ['AM01', 'zm.north'],
        ['ZM02', 'am.north'],
      ])
        expect(await refused(id, username)).toEqual(unknown);
    });
  });

  describe('FillProfitCenterForCustomer', () => {
    const runAs = async (id: string, fields: Record<string, string> = {}) =>
      (await runOperation(fillProfitCenterForCustomer, engine, fields, { principal: principal(id, ALL_USERS) })).data;
    const centersOf = (code: string) =>
      CUSTOMER_PROFIT_CENTERS.filter((l) => l.customer_code === code)
        .map((l) => PROFIT_CENTERS.find((p) => p.code === l.profit_center_code)!)
        .sort((a, b) => (a.code < b.code ? -1 : 1))
        .map((p) => ({ Code: p.code, Name: p.name }));

    it.each([
      ['SO01', 'c001'],
      ['SO01', 'C003'],
      ['SO02', 'C003'],
      ['AM01', 'C002'],
      ['AM01', 'C004'],
      ['ZM02', 'C004'],
      ['ADM001', 'C001'],
    ])("%s asking for %s: the customer's profit centers within the scope, else an empty list", async (id, code) => {
      const owner = CUSTOMERS.find((c) => c.code === code.toUpperCase())!.sales_officer_id;
      const want = seesOfficer(id, owner, ALL_USERS) ? centersOf(code.toUpperCase()) : [];
      expect(await runAs(id, { CustomerCode: code })).toEqual(want);
    });

    it('keeps the full list of profit centers (master data) for every user', async () => {
      const all = PROFIT_CENTERS.map((p) => ({ Code: p.code, Name: p.name })).sort((a, b) =>
        a.Code < b.Code ? -1 : 1,
      );
      expect(await runAs('SO02')).toEqual(all);
      expect(await runAs('SO01', { CustomerCode: 'C003' })).toEqual([]);
      expect(await runAs('SO01', { CustomerCode: 'C001' })).toEqual(centersOf('C001'));
    });
  });
});
