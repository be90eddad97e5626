import type { Engine } from '../db/engine';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { insertMasterData } from '../../test/support/fixture';
import { findUser, idsBelow, isAbove, officerScope } from './hierarchy';

describe.each(ENGINES)('reporting tree: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertMasterData(engine.db),
  );

  it('finds a user by id or username without regard to case', async () => {
    expect((await findUser(engine.db, 'so01'))?.id).toBe('SO01');
    expect((await findUser(engine.db, 'AM.North'))?.id).toBe('AM01');
    expect(await findUser(engine.db, 'nobody')).toBeUndefined();
  });

  it('lists everyone below a manager at any depth', async () => {
    expect((await idsBelow(engine.db, 'ZM01')).sort()).toEqual(['AM01', 'SO01', 'SO02', 'SO04']);
    expect((await idsBelow(engine.db, 'ADM001')).length).toBe(8);
    expect(await idsBelow(engine.db, 'SO01')).toEqual([]);
  });

  it('knows who is above whom', async () => {
    expect(await isAbove(engine.db, 'AM01', 'SO01')).toBe(true);
    expect(await isAbove(engine.db, 'ADM001', 'SO03')).toBe(true);
    expect(await isAbove(engine.db, 'AM02', 'SO01')).toBe(false);
    expect(await isAbove(engine.db, 'SO01', 'AM01')).toBe(false);
    expect(await isAbove(engine.db, 'SO01', 'SO01')).toBe(false);
  });

  it('scopes an officer to themselves, a manager to their tree, the admin to everything', async () => {
    const scope = async (id: string) => officerScope(engine.db, (await findUser(engine.db, id))!);
    expect(await scope('SO02')).toEqual(['SO02']);
    expect((await scope('AM02'))!.sort()).toEqual(['AM02', 'SO03']);
    expect(await scope('ADM001')).toBeUndefined();
  });
});
