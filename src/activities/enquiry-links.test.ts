import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { businessFailure, fixedClock, runOperation } from '../../test/support/operation';
import { updateActivityNoAndOrderToCustInEnquiryMst as operation } from './operations';
import { ENQUIRIES, insertActivityData, insertEnquiry, pending } from './test-fixture';

const NOW = '2026-06-15T10:00:00.000Z';
const LATER = '2026-06-16T09:30:00.000Z';

function enquiryObject(row: Database['enquiries']) {
  return {
    EnquiryNo: row.enquiry_no,
    EnquiryDate: row.enquiry_date,
    CustomerCode: row.customer_code,
    SalesOfficer: row.sales_officer_id,
    Description: row.description,
    ActivityNo: row.activity_no,
    OrderToCustomer: row.order_to_customer,
    UpdatedAt: row.updated_at,
  };
}

describe.each(ENGINES)('UpdateActivityNoAndOrderToCustInEnquiryMst: %s', (kind) => {
  let engine: Engine;
  let sequence = 0;

  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertActivityData(engine.db),
  );

  /** A new unlinked enquiry of C001 (SO01) for a test that changes one. */
  const addEnquiry = () => insertEnquiry(engine.db, `ENQT${String(++sequence).padStart(3, '0')}`, 'SO01', 'C001');

  const run = (fields: Record<string, string>, now = NOW) =>
    runOperation(operation, engine, fields, { clock: fixedClock(now) });

  const failure = (fields: Record<string, string>) => businessFailure(run(fields));

  const stored = (no: string) =>
    engine.db.selectFrom('enquiries').selectAll().where('enquiry_no', '=', no).executeTakeFirstOrThrow();

  it('does nothing and succeeds when called with no input at all', async () => {
    expect(await run({})).toEqual({ data: null, message: expect.stringContaining('nothing was changed') });
    expect(await run({ EnquiryNo: '', ActivityNo: ' ' })).toEqual({
      data: null,
      message: expect.stringContaining('nothing was changed'),
    });
    expect(
      await engine.db
        .selectFrom('enquiries')
        .selectAll()
        .where('enquiry_no', 'like', 'ENQ00%')
        .orderBy('enquiry_no')
        .execute(),
    ).toEqual(ENQUIRIES);
  });

  it('requires EnquiryNo, then ActivityNo or OrderToCustomer', async () => {
    const noEnquiry = await failure({ ActivityNo: 'ACT001' });
    expect([noEnquiry.code, noEnquiry.field]).toEqual(['MISSING_PARAMETER', 'EnquiryNo']);
    expect(noEnquiry.message.startsWith('EnquiryNo')).toBe(true);
    const noLink = await failure({ EnquiryNo: 'ENQ001', ActivityNo: '  ', OrderToCustomer: '' });
    expect([noLink.code, noLink.field]).toEqual(['MISSING_PARAMETER', 'ActivityNo']);
    expect(noLink.message.startsWith('ActivityNo')).toBe(true);
  });

  it('refuses a number too long to be one', async () => {
    const error = await failure({ EnquiryNo: 'E'.repeat(65), ActivityNo: 'ACT001' });
    expect([error.code, error.field]).toEqual(['INVALID_PARAMETER', 'EnquiryNo']);
  });

  it('answers NOT_FOUND, naming the field, for an unknown enquiry, activity or customer', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ EnquiryNo: 'ENQ999', ActivityNo: 'ACT001' }, 'EnquiryNo'],
      [{ EnquiryNo: 'ENQ001', ActivityNo: 'ACT999' }, 'ActivityNo'],
      [{ EnquiryNo: 'ENQ001', OrderToCustomer: 'C999' }, 'OrderToCustomer'],
      [{ EnquiryNo: 'ENQ001', ActivityNo: 'ACT001', OrderToCustomer: 'C999' }, 'OrderToCustomer'],
    ];
    for (const [fields, field] of cases) {
      const error = await failure(fields);
      expect([error.code, error.field]).toEqual(['NOT_FOUND', field]);
    }
    expect(await stored('ENQ001')).toEqual(ENQUIRIES[0]);
  });

  it("refuses an activity of another customer than the enquiry's", async () => {
    // ENQ001 is C001's; ACT002 is C002's.
    const error = await failure({ EnquiryNo: 'ENQ001', ActivityNo: 'ACT002', OrderToCustomer: 'C001' });
    expect([error.code, error.field]).toEqual(['INVALID_PARAMETER', 'ActivityNo']);
    expect(error.message).toMatch(/^ActivityNo: activity ACT002 belongs to customer C002/);
    expect(await stored('ENQ001')).toEqual(ENQUIRIES[0]);
  });

  it('links both, saving the stored spellings and the time of the change', async () => {
    const row = await addEnquiry();
    const result = await run({
      EnquiryNo: row.enquiry_no.toLowerCase(),
      ActivityNo: 'act001',
      OrderToCustomer: 'c002',
    });
    const linked = { ...row, activity_no: 'ACT001', order_to_customer: 'C002', updated_at: NOW };
    expect(result.data).toEqual(enquiryObject(linked));
    expect(result.message).toBe(`Enquiry ${row.enquiry_no} updated.`);
    expect(await stored(row.enquiry_no)).toEqual(linked);
  });

  it('changes only the link that is given', async () => {
    const row = await addEnquiry();
    await run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT006' });
    expect(await stored(row.enquiry_no)).toEqual({ ...row, activity_no: 'ACT006', updated_at: NOW });
    await run({ EnquiryNo: row.enquiry_no, OrderToCustomer: 'C003' }, LATER);
    expect(await stored(row.enquiry_no)).toEqual({
      ...row,
      activity_no: 'ACT006',
      order_to_customer: 'C003',
      updated_at: LATER,
    });
  });

  it('replaces an earlier link', async () => {
    const row = await addEnquiry();
    await run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT001', OrderToCustomer: 'C001' });
    const result = await run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT006' }, LATER);
    const relinked = { ...row, activity_no: 'ACT006', order_to_customer: 'C001', updated_at: LATER };
    expect(result.data).toEqual(enquiryObject(relinked));
    expect(await stored(row.enquiry_no)).toEqual(relinked);
  });

  it('treats the same update again as a no-op that keeps updated_at', async () => {
    const row = await addEnquiry();
    await run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT001', OrderToCustomer: 'C002' });
    const first = await stored(row.enquiry_no);
    const again = await run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT001', OrderToCustomer: 'c002' }, LATER);
    expect(again.data).toEqual(enquiryObject(first));
    expect(again.message).toBe(`Enquiry ${row.enquiry_no} already carried these links; nothing was changed.`);
    const part = await run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT001' }, LATER);
    expect(part.data).toEqual(enquiryObject(first));
    expect(await stored(row.enquiry_no)).toEqual({ ...first, updated_at: NOW });
  });

  it('links a newly logged activity and many identical concurrent calls change the row once', async () => {
    const row = await addEnquiry();
    await engine.db
      .insertInto('activities')
      .values(pending('ACT100', '2026-06-12', 'DEMO', 'C001', 'SO01', 'Follow-up demo'))
      .execute();
    const instants = Array.from({ length: 8 }, (_, i) => `2026-06-15T12:00:0${i}.000Z`);
    const results = await Promise.all(
      instants.map((instant) => run({ EnquiryNo: row.enquiry_no, ActivityNo: 'ACT100' }, instant)),
    );
    const final = await stored(row.enquiry_no);
    expect(final.activity_no).toBe('ACT100');
    expect(instants).toContain(final.updated_at);
    expect(results.filter((r) => r.message === `Enquiry ${row.enquiry_no} updated.`)).toHaveLength(1);
    for (const result of results) expect(result.data).toEqual(enquiryObject(final));
  });
});

// A separate block, so its database is never open at the same time as the fixture database above.
describe.each(ENGINES)('UpdateActivityNoAndOrderToCustInEnquiryMst on an empty database: %s', (kind) => {
  let empty: Engine;
  suiteEngine(kind, (opened) => (empty = opened));

  it('answers NOT_FOUND, or nothing for no input', async () => {
    const error = await runOperation(operation, empty, { EnquiryNo: 'ENQ001', ActivityNo: 'ACT001' }).catch(
      (e: AppError) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).field]).toEqual(['NOT_FOUND', 'EnquiryNo']);
    expect(await runOperation(operation, empty, {})).toEqual({ data: null, message: expect.any(String) });
  });
});
