import type { Engine } from '../db/engine';
import type { WarrantyStatus } from '../db/schema';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { fixedClock, runOperation } from '../../test/support/operation';
import { createWarrantyRequest, updateWarrantyTransportDetails } from './operations';
import { failure, insertWarrantyFixture, validRequest } from './test-fixture';

const CREATED = '2026-06-15T10:00:00.000Z';
const LATER = '2026-06-16T09:30:00.000Z';
const EVEN_LATER = '2026-06-17T08:00:00.000Z';

const DETAILS = {
  RequestNo: 'WR0000001',
  Transporter: 'Blue Dart',
  LRNo: 'LR-778',
  LRDate: '16/06/2026',
  VehicleNo: 'DL01AB1234',
};

describe.each(ENGINES)('UpdateWarrantyTransportDetails: %s', (kind) => {
  let engine: Engine;
  const update = (fields: Record<string, string>, at = LATER) =>
    runOperation(updateWarrantyTransportDetails, engine, fields, { clock: fixedClock(at) });
  const row = () =>
    engine.db
      .selectFrom('warranty_requests')
      .selectAll()
      .where('request_no', '=', 'WR0000001')
      .executeTakeFirstOrThrow();

  beforeEach(async () => {
    engine = await freshEngine(kind);
    await insertWarrantyFixture(engine.db);
    await runOperation(createWarrantyRequest, engine, validRequest(), { clock: fixedClock(CREATED) });
  });

  afterEach(async () => {
    await engine.close();
  });

  it('dispatches a SUBMITTED request with the details: new version, change_seq and updated_at', async () => {
    const result = await update(DETAILS);
    expect(result.data).toEqual({
      RequestNo: 'WR0000001',
      ClientRequestId: null,
      CustomerCode: 'C001',
      SalesOfficer: 'SO01',
      ProductCode: 'P001',
      SerialNo: 'SN-1001',
      InvoiceNo: null,
      PurchaseDate: null,
      Complaint: 'Pump stops after ten minutes',
      Status: 'DISPATCHED',
      Transporter: 'Blue Dart',
      LRNo: 'LR-778',
      LRDate: '2026-06-16',
      VehicleNo: 'DL01AB1234',
      CreatedAt: CREATED,
      UpdatedAt: LATER,
      Version: 2,
    });
    expect(result.message).toBe('Warranty request WR0000001 is DISPATCHED with the transport details.');
    expect(await row()).toMatchObject({
      status: 'DISPATCHED',
      transporter: 'Blue Dart',
      lr_no: 'LR-778',
      lr_date: '2026-06-16',
      vehicle_no: 'DL01AB1234',
      version: 2,
      change_seq: 2,
      updated_at: LATER,
    });
  });

  it('finds the request without regard to case', async () => {
    const result = await update({ ...DETAILS, RequestNo: 'wr0000001' });
    expect(result.data).toMatchObject({ RequestNo: 'WR0000001', Status: 'DISPATCHED' });
  });

  it('LRDate and VehicleNo are optional', async () => {
    const result = await update({ RequestNo: 'WR0000001', Transporter: 'Own vehicle', LRNo: 'HAND-1' });
    expect(result.data).toMatchObject({
      Status: 'DISPATCHED',
      Transporter: 'Own vehicle',
      LRNo: 'HAND-1',
      LRDate: null,
      VehicleNo: null,
    });
  });

  it('the identical call again changes nothing and succeeds', async () => {
    const first = await update(DETAILS);
    const before = await row();
    const again = await update(DETAILS, EVEN_LATER);
    expect(again.data).toEqual(first.data);
    expect(again.message).toBe('Warranty request WR0000001 already has these transport details: nothing was changed.');
    expect(await row()).toEqual(before);
    const seq = await engine.db
      .selectFrom('counters')
      .select('value')
      .where('name', '=', 'warranty_change_seq')
      .executeTakeFirstOrThrow();
    expect(Number(seq.value)).toBe(2);
  });

  it('on a DISPATCHED request corrects the details with a new version and change_seq; a left-out detail is cleared', async () => {
    await update(DETAILS);
    const result = await update(
      { RequestNo: 'WR0000001', Transporter: 'Blue Dart', LRNo: 'LR-779', LRDate: '2026-06-16' },
      EVEN_LATER,
    );
    expect(result.data).toMatchObject({
      Status: 'DISPATCHED',
      LRNo: 'LR-779',
      LRDate: '2026-06-16',
      VehicleNo: null,
      Version: 3,
      UpdatedAt: EVEN_LATER,
    });
    expect(result.message).toBe('Warranty request WR0000001 has its transport details corrected.');
    expect(await row()).toMatchObject({ version: 3, change_seq: 3 });
  });

  it.each(['RECEIVED', 'APPROVED', 'REJECTED', 'CLOSED'] as WarrantyStatus[])(
    'a %s request is INVALID_STATE and stays as it is',
    async (status) => {
      await update(DETAILS);
      await engine.db.updateTable('warranty_requests').set({ status }).where('request_no', '=', 'WR0000001').execute();
      const before = await row();
      for (const fields of [DETAILS, { ...DETAILS, LRNo: 'OTHER' }]) {
        const err = await failure(update(fields, EVEN_LATER));
        expect(err).toMatchObject({ code: 'INVALID_STATE', field: 'RequestNo' });
        expect(err.message).toBe(
          `RequestNo: warranty request WR0000001 is ${status}; transport details can be set only while it is SUBMITTED or DISPATCHED`,
        );
      }
      expect(await row()).toEqual(before);
    },
  );

  it('an unknown RequestNo is NOT_FOUND', async () => {
    const err = await failure(update({ ...DETAILS, RequestNo: 'WR0000099' }));
    expect(err).toMatchObject({
      code: 'NOT_FOUND',
      field: 'RequestNo',
      message: "RequestNo: warranty request 'WR0000099' does not exist",
    });
  });

  it('RequestNo, Transporter and LRNo are required, named in that order', async () => {
    expect(await failure(update({}))).toMatchObject({ code: 'MISSING_PARAMETER', field: 'RequestNo' });
    expect(await failure(update({ LRNo: 'x', Transporter: 'y' }))).toMatchObject({
      code: 'MISSING_PARAMETER',
      field: 'RequestNo',
    });
    expect(await failure(update({ RequestNo: 'WR0000001', LRNo: 'x' }))).toMatchObject({
      code: 'MISSING_PARAMETER',
      field: 'Transporter',
    });
    expect(await failure(update({ RequestNo: 'WR0000001', Transporter: 'y', LRNo: '  ' }))).toMatchObject({
      code: 'MISSING_PARAMETER',
      field: 'LRNo',
    });
    expect(await row()).toMatchObject({ status: 'SUBMITTED', version: 1 });
  });

  it.each([
    ['LRDate', '31/02/2026', "LRDate: '31/02/2026' is not a date"],
    ['LRDate', '2026-06-17', "LRDate: '2026-06-17' is after today (2026-06-16)"],
    ['Transporter', 'x'.repeat(201), 'Transporter: is 201 characters long; at most 200 are accepted'],
    ['LRNo', 'x'.repeat(101), 'LRNo: is 101 characters long; at most 100 are accepted'],
    ['VehicleNo', 'x'.repeat(51), 'VehicleNo: is 51 characters long; at most 50 are accepted'],
  ])('%s %s is INVALID_PARAMETER', async (field, value, message) => {
    const err = await failure(update({ ...DETAILS, [field]: value }));
    expect(err).toMatchObject({ code: 'INVALID_PARAMETER', field });
    expect(err.message).toContain(message);
    expect(await row()).toMatchObject({ status: 'SUBMITTED', version: 1 });
  });

  it('parallel corrections are applied one after the other, each with its own version and change_seq', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => update({ ...DETAILS, LRNo: `LR-${i}` })));
    const versions = answers.map((a) => (a.data as { Version: number }).Version).sort((a, b) => a - b);
    expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(answers.filter((a) => a.message?.includes('is DISPATCHED'))).toHaveLength(1);
    const final = await row();
    expect(final).toMatchObject({ version: 11, change_seq: 11, status: 'DISPATCHED' });
    const last = answers.find((a) => (a.data as { Version: number }).Version === 11)!;
    expect(final.lr_no).toBe((last.data as { LRNo: string }).LRNo);
  });
});
