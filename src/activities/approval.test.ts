import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { businessFailure, fixedClock, runOperation } from '../../test/support/operation';
import { activityApprovalRejection } from './operations';
import { ACTIVITIES, activityObject, insertActivityData, insertPending } from './test-fixture';

const NOW = '2026-06-15T10:00:00.000Z';

describe.each(ENGINES)('ActivityApprovalRejection: %s', (kind) => {
  let engine: Engine;
  let sequence = 0;

  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertActivityData(engine.db),
  );

  /** A new PENDING activity of its own for a test that changes one. */
  async function addPending(officer = 'SO01', customer = 'C001'): Promise<Database['activities']> {
    return insertPending(engine.db, `TST${String(++sequence).padStart(4, '0')}`, officer, customer);
  }

  const run = (fields: Record<string, string>, now = NOW) =>
    runOperation(activityApprovalRejection, engine, fields, { clock: fixedClock(now) });

  const failure = (fields: Record<string, string>) => businessFailure(run(fields));

  const stored = (no: string) =>
    engine.db.selectFrom('activities').selectAll().where('activity_no', '=', no).executeTakeFirstOrThrow();

  describe('parameters', () => {
    it('does nothing and succeeds when called with no input at all', async () => {
      const before = await engine.db.selectFrom('activities').selectAll().orderBy('activity_no').execute();
      expect(await run({})).toEqual({ data: null, message: expect.stringContaining('nothing was changed') });
      expect(await run({ ActivityNo: ' ', Action: '' })).toEqual({
        data: null,
        message: expect.stringContaining('nothing was changed'),
      });
      expect(await engine.db.selectFrom('activities').selectAll().orderBy('activity_no').execute()).toEqual(before);
    });

    it('requires ActivityNo, Action and ApprovedBy, in that order', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ Remarks: 'x' }, 'ActivityNo'],
        [{ Action: 'APPROVE', ApprovedBy: 'AM01' }, 'ActivityNo'],
        [{ ActivityNo: 'ACT001', ApprovedBy: 'AM01' }, 'Action'],
        [{ ActivityNo: 'ACT001', Action: 'APPROVE' }, 'ApprovedBy'],
        [{ ActivityNo: 'ACT001', Action: 'nonsense' }, 'ApprovedBy'],
      ];
      for (const [fields, field] of cases) {
        const error = await failure(fields);
        expect([error.code, error.field]).toEqual(['MISSING_PARAMETER', field]);
        expect(error.message.startsWith(field)).toBe(true);
      }
      expect((await stored('ACT001')).status).toBe('PENDING');
    });

    it('refuses an unknown Action, naming the accepted ones', async () => {
      const error = await failure({ ActivityNo: 'ACT001', Action: 'MAYBE', ApprovedBy: 'AM01' });
      expect([error.code, error.field]).toEqual(['INVALID_PARAMETER', 'Action']);
      expect(error.message).toMatch(/^Action: 'MAYBE' is not an action/);
      for (const accepted of ['APPROVE', 'REJECT', 'A', 'R', 'APPROVED', 'REJECTED'])
        expect(error.message).toContain(accepted);
    });

    it.each([
      ['APPROVE', 'APPROVED'],
      ['approve', 'APPROVED'],
      ['A', 'APPROVED'],
      ['a', 'APPROVED'],
      ['Approved', 'APPROVED'],
      ['REJECT', 'REJECTED'],
      ['Reject', 'REJECTED'],
      ['r', 'REJECTED'],
      ['REJECTED', 'REJECTED'],
      ['rejected', 'REJECTED'],
    ])('reads Action %s as %s', async (action, status) => {
      const row = await addPending();
      const result = await run({ ActivityNo: row.activity_no, Action: action, ApprovedBy: 'AM01', Remarks: 'Checked' });
      expect((result.data as { Status: string }).Status).toBe(status);
      expect((await stored(row.activity_no)).status).toBe(status);
    });

    it('requires Remarks to reject, not to approve', async () => {
      const row = await addPending();
      const error = await failure({ ActivityNo: row.activity_no, Action: 'REJECT', ApprovedBy: 'AM01', Remarks: '  ' });
      expect([error.code, error.field]).toEqual(['MISSING_PARAMETER', 'Remarks']);
      expect((await stored(row.activity_no)).status).toBe('PENDING');

      const result = await run({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: 'AM01' });
      expect(result.data).toMatchObject({ Status: 'APPROVED', Remarks: null });
    });

    it('accepts Remarks of up to 1000 characters', async () => {
      const row = await addPending();
      const error = await failure({
        ActivityNo: row.activity_no,
        Action: 'R',
        ApprovedBy: 'AM01',
        Remarks: 'x'.repeat(1001),
      });
      expect([error.code, error.field]).toEqual(['INVALID_PARAMETER', 'Remarks']);
      expect(error.message.startsWith('Remarks')).toBe(true);

      await run({ ActivityNo: row.activity_no, Action: 'R', ApprovedBy: 'AM01', Remarks: 'y'.repeat(1000) });
      expect((await stored(row.activity_no)).remarks).toBe('y'.repeat(1000));
    });
  });

  describe('references and permission', () => {
    it('answers NOT_FOUND for an unknown activity or user', async () => {
      const noActivity = await failure({ ActivityNo: 'NOPE', Action: 'A', ApprovedBy: 'AM01' });
      expect([noActivity.code, noActivity.field]).toEqual(['NOT_FOUND', 'ActivityNo']);
      const noUser = await failure({ ActivityNo: 'ACT001', Action: 'A', ApprovedBy: 'nobody' });
      expect([noUser.code, noUser.field]).toEqual(['NOT_FOUND', 'ApprovedBy']);
      expect((await stored('ACT001')).status).toBe('PENDING');
    });

    it.each([
      ['the officer themselves', 'SO01'],
      ['a fellow officer', 'SO02'],
      ['a manager of another branch', 'AM02'],
      ['a zonal manager of another zone', 'zm.south'],
    ])('forbids %s to decide', async (_who, approvedBy) => {
      const row = await addPending('SO01');
      const error = await failure({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: approvedBy });
      expect([error.code, error.field]).toEqual(['FORBIDDEN', 'ApprovedBy']);
      expect(await stored(row.activity_no)).toEqual(row);
    });

    it('forbids an inactive manager to decide', async () => {
      await engine.db
        .insertInto('users')
        .values({
          id: 'AM09',
          username: 'am.gone',
          name: 'Gone Manager',
          role: 'AM',
          manager_id: 'ZM01',
          zone_code: 'N',
          active: 0,
        })
        .execute();
      await engine.db
        .insertInto('users')
        .values({
          id: 'SO09',
          username: 'so.nine',
          name: 'Officer Nine',
          role: 'SO',
          manager_id: 'AM09',
          zone_code: 'N',
          active: 1,
        })
        .execute();
      const row = await addPending('SO09');
      const error = await failure({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: 'AM09' });
      expect([error.code, error.field]).toEqual(['FORBIDDEN', 'ApprovedBy']);
      // Their active manager above may.
      await run({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: 'ZM01' });
      expect((await stored(row.activity_no)).decided_by).toBe('ZM01');
    });

    it.each([
      ['the direct manager by id', 'AM01', 'AM01'],
      ['the direct manager by username, any case', 'AM.North', 'AM01'],
      ['the zonal manager above', 'zm01', 'ZM01'],
      ['the admin', 'admin', 'ADM001'],
    ])('lets %s decide', async (_who, approvedBy, id) => {
      const row = await addPending('SO01');
      await run({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: approvedBy });
      expect((await stored(row.activity_no)).decided_by).toBe(id);
    });

    it('lets an ADMIN outside the tree decide', async () => {
      await engine.db
        .insertInto('users')
        .values({
          id: 'ADM002',
          username: 'admin2',
          name: 'Second Admin',
          role: 'ADMIN',
          manager_id: null,
          zone_code: null,
          active: 1,
        })
        .execute();
      const row = await addPending('SO03', 'C004');
      await run({ ActivityNo: row.activity_no, Action: 'REJECT', ApprovedBy: 'ADM002', Remarks: 'Not needed' });
      expect((await stored(row.activity_no)).status).toBe('REJECTED');
    });
  });

  describe('decisions', () => {
    it('approves a PENDING activity and returns it', async () => {
      const row = await addPending('SO02', 'C003');
      const result = await run({
        ActivityNo: row.activity_no,
        Action: 'APPROVE',
        ApprovedBy: 'am.north',
        Remarks: 'Well done',
      });
      const decided = {
        ...row,
        status: 'APPROVED' as const,
        decided_by: 'AM01',
        decided_at: NOW,
        remarks: 'Well done',
      };
      expect(result.data).toEqual(activityObject(decided));
      expect(result.message).toBe(`Activity ${row.activity_no} approved.`);
      expect(await stored(row.activity_no)).toEqual(decided);
    });

    it('rejects a PENDING activity, matching ActivityNo without regard to case', async () => {
      const row = await addPending('SO03', 'C005');
      const result = await run({
        ActivityNo: row.activity_no.toLowerCase(),
        Action: 'reject',
        ApprovedBy: 'AM02',
        Remarks: 'Customer inactive',
      });
      const decided = {
        ...row,
        status: 'REJECTED' as const,
        decided_by: 'AM02',
        decided_at: NOW,
        remarks: 'Customer inactive',
      };
      expect(result.data).toEqual(activityObject(decided));
      expect(await stored(row.activity_no)).toEqual(decided);
    });

    it('treats deciding again the same way as a no-op success', async () => {
      const row = await addPending();
      await run({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: 'AM01', Remarks: 'First' });
      const first = await stored(row.activity_no);
      const again = await run(
        { ActivityNo: row.activity_no, Action: 'A', ApprovedBy: 'ZM01', Remarks: 'Second' },
        '2026-06-16T08:00:00.000Z',
      );
      expect(again.data).toEqual(activityObject(first));
      expect(again.message).toBe(
        `Activity ${row.activity_no} was already approved by AM01 at ${NOW}; nothing was changed.`,
      );
      expect(await stored(row.activity_no)).toEqual(first);
    });

    it('refuses to decide the other way once decided', async () => {
      const approved = ACTIVITIES.find((a) => a.activity_no === 'ACT003')!;
      const error = await failure({
        ActivityNo: 'ACT003',
        Action: 'REJECT',
        ApprovedBy: 'AM01',
        Remarks: 'Changed my mind',
      });
      expect([error.code, error.field]).toEqual(['INVALID_STATE', 'ActivityNo']);
      expect(error.message).toContain('already approved by AM01');
      expect(await stored('ACT003')).toEqual(approved);

      const rejected = ACTIVITIES.find((a) => a.activity_no === 'ACT004')!;
      const again = await failure({ ActivityNo: 'ACT004', Action: 'APPROVE', ApprovedBy: 'AM02' });
      expect(again.code).toBe('INVALID_STATE');
      expect(await stored('ACT004')).toEqual(rejected);
    });

    it('lets exactly one of a racing approval and rejection win', async () => {
      for (let round = 0; round < 5; round++) {
        const row = await addPending();
        const outcomes = await Promise.allSettled([
          run({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: 'AM01' }, '2026-06-15T10:00:01.000Z'),
          run(
            { ActivityNo: row.activity_no, Action: 'REJECT', ApprovedBy: 'ZM01', Remarks: 'No' },
            '2026-06-15T10:00:02.000Z',
          ),
        ]);
        const won = outcomes.filter((o) => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect([won.length, lost.length]).toEqual([1, 1]);
        expect(lost[0].reason).toBeInstanceOf(AppError);
        expect((lost[0].reason as AppError).code).toBe('INVALID_STATE');
        const winner =
          outcomes[0].status === 'fulfilled'
            ? { status: 'APPROVED', decided_by: 'AM01', decided_at: '2026-06-15T10:00:01.000Z', remarks: null }
            : { status: 'REJECTED', decided_by: 'ZM01', decided_at: '2026-06-15T10:00:02.000Z', remarks: 'No' };
        expect(await stored(row.activity_no)).toEqual({ ...row, ...winner });
      }
    });

    it('records one decision when many approve at once, and every call succeeds', async () => {
      const row = await addPending();
      const instants = Array.from({ length: 12 }, (_, i) => `2026-06-15T11:00:${String(i).padStart(2, '0')}.000Z`);
      const results = await Promise.all(
        instants.map((instant, i) =>
          run({ ActivityNo: row.activity_no, Action: 'APPROVE', ApprovedBy: i % 2 ? 'AM01' : 'ZM01' }, instant),
        ),
      );
      const final = await stored(row.activity_no);
      expect(final.status).toBe('APPROVED');
      expect(instants).toContain(final.decided_at);
      for (const result of results) expect(result.data).toEqual(activityObject(final));
      expect(results.filter((r) => r.message === `Activity ${row.activity_no} approved.`)).toHaveLength(1);
      expect(results.filter((r) => r.message?.includes('nothing was changed'))).toHaveLength(11);
    });
  });
});

// A separate block, so its database is never open at the same time as the fixture database above.
describe.each(ENGINES)('ActivityApprovalRejection on an empty database: %s', (kind) => {
  let empty: Engine;
  suiteEngine(kind, (opened) => (empty = opened));

  it('answers NOT_FOUND, or nothing for no input', async () => {
    const error = await runOperation(activityApprovalRejection, empty, {
      ActivityNo: 'ACT001',
      Action: 'A',
      ApprovedBy: 'admin',
    }).catch((e: AppError) => e);
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).field]).toEqual(['NOT_FOUND', 'ActivityNo']);
    expect(await runOperation(activityApprovalRejection, empty, {})).toEqual({
      data: null,
      message: expect.any(String),
    });
  });
});
