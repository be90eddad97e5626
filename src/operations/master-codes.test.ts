import type { Engine } from '../db/engine';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { insertMasterData } from '../../test/support/fixture';
import {
  documentNumberSpellings,
  preferredSpelling,
  storedCustomerCode,
  storedProfitCenter,
  storedUserId,
} from './master-codes';

describe.each(ENGINES)('stored spellings of master codes: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    async () => {
      await insertMasterData(engine.db);
      // Codes that differ from the fixture's only by case: the exact spelling typed must win.
      await engine.db
        .insertInto('customers')
        .values({
          code: 'c001',
          name: 'Lower Agarwal',
          state_code: 'DL',
          sales_officer_id: 'SO02',
          credit_limit: 0,
          active: 1,
        })
        .execute();
      await engine.db
        .insertInto('users')
        .values({
          id: 'so01',
          username: 'so.one.lower',
          name: 'Lower One',
          role: 'SO',
          manager_id: 'AM01',
          zone_code: 'N',
          active: 1,
        })
        .execute();
      await engine.db.insertInto('profit_centers').values({ code: 'pc1', name: 'Lower Pumps' }).execute();
    },
  );

  it('prefers the exact spelling, trimmed, when two stored codes differ only by case', async () => {
    expect(await storedCustomerCode(engine.db, 'c001')).toBe('c001');
    expect(await storedCustomerCode(engine.db, ' C001 ')).toBe('C001');
    expect(await storedUserId(engine.db, 'so01')).toBe('so01');
    expect(await storedUserId(engine.db, 'SO01')).toBe('SO01');
    expect(await storedProfitCenter(engine.db, 'pc1')).toBe('pc1');
    expect(await storedProfitCenter(engine.db, ' PC1')).toBe('PC1');
    // Neither stored spelling is exact: one of them, never nothing.
    expect(['PC1', 'pc1']).toContain(await storedProfitCenter(engine.db, 'Pc1'));
  });

  it('finds the one stored spelling in any case, and nothing for an unknown code', async () => {
    expect(await storedCustomerCode(engine.db, 'c002')).toBe('C002');
    expect(await storedUserId(engine.db, 'am01')).toBe('AM01');
    expect(await storedProfitCenter(engine.db, 'Pc2')).toBe('PC2');
    expect(await storedCustomerCode(engine.db, 'C999')).toBeUndefined();
    expect(await storedUserId(engine.db, 'so.one')).toBeUndefined();
    expect(await storedProfitCenter(engine.db, 'PC9')).toBeUndefined();
  });
});

describe('document number spellings', () => {
  it('looks a number up as typed (trimmed), upper- and lower-cased, without repeats', () => {
    expect(documentNumberSpellings(' Pdc-7 ')).toEqual(['Pdc-7', 'PDC-7', 'pdc-7']);
    expect(documentNumberSpellings('PDC-7')).toEqual(['PDC-7', 'pdc-7']);
  });

  it('prefers the row stored under the earliest spelling', () => {
    const rows = [{ no: 'pdc-7' }, { no: 'PDC-7' }];
    expect(preferredSpelling(rows, ['Pdc-7', 'PDC-7', 'pdc-7'], (r) => r.no)).toBe(rows[1]);
    expect(preferredSpelling(rows, ['pdc-7', 'PDC-7'], (r) => r.no)).toBe(rows[0]);
    expect(preferredSpelling(rows, ['X'], (r) => r.no)).toBeUndefined();
  });
});
