import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { businessFailure as failure, fixedClock, runOperation } from '../../test/support/operation';
import type { Operation } from '../operations/types';
import { activityApprovalRejection, updateActivityNoAndOrderToCustInEnquiryMst } from './operations';
import { insertActivityData, insertEnquiry, insertPending } from './test-fixture';
import { principal, refusalShape, seesOfficer } from '../users/test-fixture';

const clock = fixedClock('2026-06-15T10:00:00.000Z');

describe.each(ENGINES)('activity writes with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  let sequence = 0;

  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertActivityData(engine.db),
  );

  const runAs = (operation: Operation, id: string, fields: Record<string, string>) =>
    runOperation(operation, engine, fields, { clock, principal: principal(id) });

  describe('ActivityApprovalRejection', () => {
    /** A new PENDING activity of `officer` for a test that decides one. */
    async function addPending(officer: string, customer: string): Promise<Database['activities']> {
      return insertPending(engine.db, `PRN${String(++sequence).padStart(4, '0')}`, officer, customer);
    }
    const stored = (no: string) =>
      engine.db
        .selectFrom('activities')
        .select(['status', 'decided_by'])
        .where('activity_no', '=', no)
        .executeTakeFirstOrThrow();
    const decide = (id: string, fields: Record<string, string>) => runAs(activityApprovalRejection, id, fields);

    it('decides as the authenticated user when ApprovedBy is left out', async () => {
      const activity = await addPending('SO01', 'C001');
      const result = await decide('AM01', { ActivityNo: activity.activity_no, Action: 'APPROVE' });
      expect(result.data).toMatchObject({ ActivityNo: activity.activity_no, Status: 'APPROVED', DecidedBy: 'AM01' });
      expect(await stored(activity.activity_no)).toEqual({ status: 'APPROVED', decided_by: 'AM01' });
    });

    it('accepts ApprovedBy naming the authenticated user by id or username, in any case', async () => {
      const first = await addPending('SO02', 'C003');
      const second = await addPending('SO03', 'C004');
      expect(
        (
          await decide('ZM01', {
            ActivityNo: first.activity_no,
            Action: 'R',
            ApprovedBy: 'zm01',
            Remarks: 'Not needed',
          })
        ).data,
      ).toMatchObject({ Status: 'REJECTED', DecidedBy: 'ZM01' });
      expect(
        (await decide('ADM001', { ActivityNo: second.activity_no, Action: 'A', ApprovedBy: 'Admin' })).data,
      ).toMatchObject({ Status: 'APPROVED', DecidedBy: 'ADM001' });
    });

    it('refuses ApprovedBy naming anyone else as FORBIDDEN, even a manager who could decide, and changes nothing', async () => {
      const activity = await addPending('SO01', 'C001');
      const error = await failure(
        decide('SO01', { ActivityNo: activity.activity_no, Action: 'APPROVE', ApprovedBy: 'AM01' }),
      );
      expect(error).toMatchObject({ code: 'FORBIDDEN', field: 'ApprovedBy' });
      expect(error.message.startsWith('ApprovedBy: ')).toBe(true);
      expect(
        await failure(decide('AM01', { ActivityNo: activity.activity_no, Action: 'APPROVE', ApprovedBy: 'zm.north' })),
      ).toMatchObject({ code: 'FORBIDDEN', field: 'ApprovedBy' });
      expect(await stored(activity.activity_no)).toEqual({ status: 'PENDING', decided_by: null });
    });

    it('applies the manager rule to the authenticated user: an officer, a manager of another tree or of themselves may not decide', async () => {
      const activity = await addPending('SO01', 'C001');
      expect(await failure(decide('SO01', { ActivityNo: activity.activity_no, Action: 'APPROVE' }))).toMatchObject({
        code: 'FORBIDDEN',
        field: 'ApprovedBy',
      });
      // Another tree's activity is answered as one that does not exist: the refusal names neither its officer nor its state.
      const hidden = await failure(decide('AM02', { ActivityNo: activity.activity_no, Action: 'APPROVE' }));
      expect(hidden).toMatchObject({ code: 'NOT_FOUND', field: 'ActivityNo' });
      expect(refusalShape(hidden, activity.activity_no)).toEqual(
        refusalShape(await failure(decide('AM02', { ActivityNo: 'PRN9999', Action: 'APPROVE' })), 'PRN9999'),
      );
      const otherOfficers = await failure(decide('SO02', { ActivityNo: activity.activity_no, Action: 'APPROVE' }));
      expect(refusalShape(otherOfficers, activity.activity_no)).toEqual(
        refusalShape(await failure(decide('SO02', { ActivityNo: 'PRN9999', Action: 'APPROVE' })), 'PRN9999'),
      );
      const own = await addPending('AM01', 'C001');
      expect(await failure(decide('AM01', { ActivityNo: own.activity_no, Action: 'APPROVE' }))).toMatchObject({
        code: 'FORBIDDEN',
        field: 'ApprovedBy',
      });
      expect((await decide('ZM01', { ActivityNo: own.activity_no, Action: 'APPROVE' })).data).toMatchObject({
        Status: 'APPROVED',
        DecidedBy: 'ZM01',
      });
      expect(await stored(activity.activity_no)).toEqual({ status: 'PENDING', decided_by: null });
    });

    it('still does nothing for a call without input', async () => {
      expect(await decide('AM01', {})).toEqual({ data: null, message: 'No input was given: nothing was changed.' });
    });
  });

  describe('UpdateActivityNoAndOrderToCustInEnquiryMst', () => {
    /** A new unlinked enquiry of `customer` (owned by `officer`). */
    const addEnquiry = (officer: string, customer: string) =>
      insertEnquiry(engine.db, `PENQ${String(++sequence).padStart(3, '0')}`, officer, customer);
    const linkedTo = async (no: string) =>
      (
        await engine.db
          .selectFrom('enquiries')
          .select('order_to_customer')
          .where('enquiry_no', '=', no)
          .executeTakeFirstOrThrow()
      ).order_to_customer;
    const link = (id: string, enquiryNo: string, customer: string) =>
      runAs(updateActivityNoAndOrderToCustInEnquiryMst, id, { EnquiryNo: enquiryNo, OrderToCustomer: customer });

    it.each([
      ['SO01', 'SO01'],
      ['SO01', 'SO02'],
      ['SO02', 'SO01'],
      ['AM01', 'SO02'],
      ['AM01', 'SO03'],
      ['ZM02', 'SO03'],
      ['ADM001', 'SO02'],
    ])(
      "%s linking an enquiry of %s: allowed within the scope of the enquiry's officer, else NOT_FOUND as if absent, and unchanged",
      async (id, officer) => {
        const customer = officer === 'SO01' ? 'C001' : officer === 'SO02' ? 'C003' : 'C004';
        const enquiry = await addEnquiry(officer, customer);
        if (seesOfficer(id, officer)) {
          expect((await link(id, enquiry.enquiry_no, 'c002')).data).toMatchObject({
            EnquiryNo: enquiry.enquiry_no,
            OrderToCustomer: 'C002',
          });
          expect(await linkedTo(enquiry.enquiry_no)).toBe('C002');
        } else {
          const error = await failure(link(id, enquiry.enquiry_no, 'C002'));
          expect(error).toMatchObject({ code: 'NOT_FOUND', field: 'EnquiryNo' });
          expect(refusalShape(error, enquiry.enquiry_no)).toEqual(
            refusalShape(await failure(link(id, 'ENQ999', 'C002')), 'ENQ999'),
          );
          expect(await linkedTo(enquiry.enquiry_no)).toBeNull();
        }
      },
    );

    it('records an order to a customer of another officer (the link is a fact, not a view)', async () => {
      const enquiry = await addEnquiry('SO01', 'C001');
      expect((await link('SO01', enquiry.enquiry_no, 'C004')).data).toMatchObject({ OrderToCustomer: 'C004' });
    });

    it('answers an activity of an officer outside the scope as one that does not exist, not naming its customer', async () => {
      const enquiry = await addEnquiry('SO01', 'C001');
      const linkActivity = (activityNo: string) =>
        runAs(updateActivityNoAndOrderToCustInEnquiryMst, 'SO01', {
          EnquiryNo: enquiry.enquiry_no,
          ActivityNo: activityNo,
        });
      const error = await failure(linkActivity('ACT003'));
      expect(error).toMatchObject({ code: 'NOT_FOUND', field: 'ActivityNo' });
      expect(refusalShape(error, 'ACT003')).toEqual(refusalShape(await failure(linkActivity('ACT999')), 'ACT999'));
      // An activity within the scope but of another customer is still named as such.
      expect(await failure(linkActivity('ACT002'))).toMatchObject({ code: 'INVALID_PARAMETER', field: 'ActivityNo' });
    });

    it('still answers an unknown enquiry with NOT_FOUND', async () => {
      expect(await failure(link('SO01', 'ENQ999', 'C001'))).toMatchObject({ code: 'NOT_FOUND', field: 'EnquiryNo' });
    });
  });
});
