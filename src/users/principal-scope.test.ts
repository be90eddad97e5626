import type { Engine } from '../db/engine';
import { AppError } from '../errors';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { USERS, insertMasterData } from '../../test/support/fixture';
import { allowedOfficers, assertCustomerInScope, assertOfficerInScope, intersectOfficers } from './principal-scope';
import { officersSeenBy, principal } from './test-fixture';

describe.each(ENGINES)('principal scope: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertMasterData(engine.db),
  );

  it('has no bound without a principal or for the admin', async () => {
    expect(await allowedOfficers({ db: engine.db })).toBeUndefined();
    expect(await allowedOfficers({ db: engine.db, principal: principal('ADM001') })).toBeUndefined();
  });

  it.each(USERS.filter((u) => u.role !== 'ADMIN').map((u) => u.id))(
    'bounds %s to themselves and everyone below them',
    async (id) => {
      const allowed = await allowedOfficers({ db: engine.db, principal: principal(id) });
      expect([...allowed!].sort()).toEqual([...officersSeenBy(id)!].sort());
    },
  );

  it('names the field of an officer or customer outside the bound', async () => {
    const allowed = ['AM01', 'SO01', 'SO02', 'SO04'];
    expect(() => assertOfficerInScope(allowed, 'SO02', 'SalesOfficer')).not.toThrow();
    expect(() => assertOfficerInScope(undefined, 'SO03', 'SalesOfficer')).not.toThrow();
    const officer = (() => {
      try {
        assertOfficerInScope(allowed, 'SO03', 'SalesOfficer');
      } catch (e) {
        return e;
      }
    })();
    expect(officer).toBeInstanceOf(AppError);
    // The text names the field, not the officer: the caller may have sent a username.
    expect(officer).toMatchObject({
      code: 'FORBIDDEN',
      field: 'SalesOfficer',
      message: "SalesOfficer: the officer it names is outside the authenticated user's scope",
    });
    await expect(assertCustomerInScope(engine.db, allowed, 'C003', 'Customer')).resolves.toBeUndefined();
    await expect(assertCustomerInScope(engine.db, allowed, 'C004', 'Customer')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'Customer',
    });
    await expect(assertCustomerInScope(engine.db, undefined, 'C004', 'Customer')).resolves.toBeUndefined();
  });

  it('intersects two bounds', () => {
    expect(intersectOfficers(undefined, ['SO01'])).toEqual(['SO01']);
    expect(intersectOfficers(['SO01', 'SO02'], undefined)).toEqual(['SO01', 'SO02']);
    expect(intersectOfficers(['SO01', 'SO02'], ['SO02', 'SO03'])).toEqual(['SO02']);
    expect(intersectOfficers(undefined, undefined)).toBeUndefined();
  });
});
