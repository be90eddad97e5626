import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, PRODUCTS } from '../../test/support/fixture';
import { businessFailure, runOperation } from '../../test/support/operation';
import { activityReportAndComplaints } from './operations';
import { ACTIVITIES, COMPLAINTS, activityObject, insertActivityData } from './test-fixture';
import { principal, refusalShape, seesOfficer } from '../users/test-fixture';

const customerName = (code: string) => CUSTOMERS.find((c) => c.code === code)!.name;

function complaintObject(row: Database['complaints']) {
  return {
    ComplaintNo: row.complaint_no,
    ComplaintDate: row.complaint_date,
    CustomerCode: row.customer_code,
    CustomerName: customerName(row.customer_code),
    SalesOfficer: row.sales_officer_id,
    ProductCode: row.product_code,
    ProductName: PRODUCTS.find((p) => p.code === row.product_code)!.name,
    Description: row.description,
    Status: row.status,
  };
}

/** Newest first, then the higher number first. */
const newestFirst =
  <T>(date: (r: T) => string, no: (r: T) => string) =>
  (a: T, b: T) =>
    date(b).localeCompare(date(a)) || no(b).localeCompare(no(a));

/** The report worked out from the fixture rows that pass `keep`. */
function expectedReport(keepOfficer: (officer: string) => boolean, from = '0000-00-00', to = '9999-99-99') {
  const activities = ACTIVITIES.filter(
    (a) => keepOfficer(a.sales_officer_id) && a.activity_date >= from && a.activity_date <= to,
  )
    .sort(
      newestFirst<Database['activities']>(
        (a) => a.activity_date,
        (a) => a.activity_no,
      ),
    )
    .map(activityObject);
  const complaints = COMPLAINTS.filter(
    (k) => keepOfficer(k.sales_officer_id) && k.complaint_date >= from && k.complaint_date <= to,
  )
    .sort(
      newestFirst<Database['complaints']>(
        (k) => k.complaint_date,
        (k) => k.complaint_no,
      ),
    )
    .map(complaintObject);
  // The rows of the fixture tallied by status, independently of the report's own counting.
  const tally = (rows: { Status: string }[]) => {
    const byStatus = new Map<string, number>();
    for (const { Status } of rows) byStatus.set(Status, (byStatus.get(Status) ?? 0) + 1);
    return (status: string) => byStatus.get(status) ?? 0;
  };
  const [activity, complaint] = [tally(activities), tally(complaints)];
  return {
    Activities: activities,
    Complaints: complaints,
    Summary: {
      ActivityCount: activities.length,
      PendingActivities: activity('PENDING'),
      ApprovedActivities: activity('APPROVED'),
      RejectedActivities: activity('REJECTED'),
      ComplaintCount: complaints.length,
      OpenComplaints: complaint('OPEN'),
      ResolvedComplaints: complaint('RESOLVED'),
    },
  };
}

const everyone = () => true;
const only =
  (...ids: string[]) =>
  (officer: string) =>
    ids.includes(officer);

describe.each(ENGINES)('ActivityReportAndComplaints: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertActivityData(engine.db),
  );

  const report = async (fields: Record<string, string>) =>
    (await runOperation(activityReportAndComplaints, engine, fields)).data;

  const failure = (fields: Record<string, string>) =>
    businessFailure(runOperation(activityReportAndComplaints, engine, fields));

  it('lists everything, newest first, when called with no fields', async () => {
    const data = await report({});
    expect(data).toEqual(expectedReport(everyone));
    // Same-day rows (ACT002/ACT006 on 2026-06-03, CMP002/CMP004 on 2026-06-05) come higher number first.
    expect((data as { Activities: { ActivityNo: string }[] }).Activities.map((a) => a.ActivityNo)).toEqual([
      'ACT005',
      'ACT006',
      'ACT003',
      'ACT002',
      'ACT001',
      'ACT007',
      'ACT004',
    ]);
  });

  it('narrows to one officer, matching the id without regard to case', async () => {
    expect(await report({ SalesOfficer: 'so01' })).toEqual(expectedReport(only('SO01')));
    expect(await report({ SalesOfficer: 'SO03' })).toEqual(expectedReport(only('SO03')));
  });

  it('lists nothing for an officer with no records or an unknown officer', async () => {
    expect(await report({ SalesOfficer: 'SO04' })).toEqual(expectedReport(() => false));
    expect(await report({ SalesOfficer: 'NOBODY' })).toEqual(expectedReport(() => false));
  });

  it("lists everything in a user's view", async () => {
    // am.north (AM01) sees itself and SO01, SO02, SO04; zm.south sees AM02, SO03; admin sees all.
    expect(await report({ Username: 'AM.NORTH' })).toEqual(expectedReport(only('AM01', 'SO01', 'SO02', 'SO04')));
    expect(await report({ Username: 'zm.south' })).toEqual(expectedReport(only('ZM02', 'AM02', 'SO03')));
    expect(await report({ Username: 'so02' })).toEqual(expectedReport(only('SO02')));
    expect(await report({ Username: 'admin' })).toEqual(expectedReport(everyone));
  });

  it('answers NOT_FOUND for an unknown Username', async () => {
    const error = await failure({ Username: 'ghost' });
    expect([error.code, error.field]).toEqual(['NOT_FOUND', 'Username']);
  });

  it("takes an officer within the user's view and forbids one outside it", async () => {
    expect(await report({ Username: 'am.north', SalesOfficer: 'SO02' })).toEqual(expectedReport(only('SO02')));
    expect(await report({ Username: 'admin', SalesOfficer: 'SO03' })).toEqual(expectedReport(only('SO03')));
    const outside = await failure({ Username: 'am.north', SalesOfficer: 'SO03' });
    expect([outside.code, outside.field]).toEqual(['FORBIDDEN', 'SalesOfficer']);
    const peer = await failure({ Username: 'so.one', SalesOfficer: 'so02' });
    expect(peer.code).toBe('FORBIDDEN');
  });

  it('takes a FromDate alone as exactly that day', async () => {
    expect(await report({ FromDate: '2026-06-03' })).toEqual(expectedReport(everyone, '2026-06-03', '2026-06-03'));
    expect(await report({ FromDate: '05/06/2026' })).toEqual(expectedReport(everyone, '2026-06-05', '2026-06-05'));
  });

  it('includes both ends of a date range', async () => {
    // 2026-05-31 .. 2026-06-05 takes ACT007 (first day) and CMP002/CMP004 (last day), leaves ACT004, CMP003, ACT005, CMP005.
    const data = await report({ FromDate: '31-05-2026', ToDate: '5 Jun 2026' });
    expect(data).toEqual(expectedReport(everyone, '2026-05-31', '2026-06-05'));
    const summary = (data as { Summary: { ActivityCount: number; ComplaintCount: number } }).Summary;
    expect([summary.ActivityCount, summary.ComplaintCount]).toEqual([5, 3]);
  });

  it('takes a ToDate alone as everything up to that day', async () => {
    expect(await report({ ToDate: '2026-06-01' })).toEqual(expectedReport(everyone, '0000-00-00', '2026-06-01'));
  });

  it('combines the date range with the officer filter', async () => {
    expect(await report({ SalesOfficer: 'SO01', FromDate: '2026-06-02', ToDate: '2026-06-10' })).toEqual(
      expectedReport(only('SO01'), '2026-06-02', '2026-06-10'),
    );
  });

  it('refuses an impossible date and a range that runs backwards', async () => {
    const impossible = await failure({ FromDate: '31/02/2026' });
    expect([impossible.code, impossible.field]).toEqual(['INVALID_PARAMETER', 'FromDate']);
    expect(impossible.message.startsWith('FromDate')).toBe(true);
    const garbled = await failure({ ToDate: 'yesterday' });
    expect([garbled.code, garbled.field]).toEqual(['INVALID_PARAMETER', 'ToDate']);
    const backwards = await failure({ FromDate: '2026-06-10', ToDate: '2026-06-01' });
    expect([backwards.code, backwards.field]).toEqual(['INVALID_PARAMETER', 'FromDate']);
  });

  it('does not change data', async () => {
    const before = await engine.db.selectFrom('activities').selectAll().orderBy('activity_no').execute();
    await report({ Username: 'admin' });
    expect(await engine.db.selectFrom('activities').selectAll().orderBy('activity_no').execute()).toEqual(before);
  });
});

// A separate block, so its database is never open at the same time as the fixture database above.
describe.each(ENGINES)('ActivityReportAndComplaints on an empty database: %s', (kind) => {
  let empty: Engine;
  suiteEngine(kind, (opened) => (empty = opened));

  it('answers empty lists and zero counts', async () => {
    const result = await runOperation(activityReportAndComplaints, empty, {});
    expect(result.data).toEqual({
      Activities: [],
      Complaints: [],
      Summary: {
        ActivityCount: 0,
        PendingActivities: 0,
        ApprovedActivities: 0,
        RejectedActivities: 0,
        ComplaintCount: 0,
        OpenComplaints: 0,
        ResolvedComplaints: 0,
      },
    });
    const withOfficer = await runOperation(activityReportAndComplaints, empty, {
      SalesOfficer: 'SO01',
      FromDate: '2026-06-01',
    });
    expect((withOfficer.data as { Activities: unknown[] }).Activities).toEqual([]);
  });
});

describe.each(ENGINES)('ActivityReportAndComplaints with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertActivityData(engine.db),
  );

  const runAs = async (id: string, fields: Record<string, string> = {}) =>
    (await runOperation(activityReportAndComplaints, engine, fields, { principal: principal(id) })).data;
  const seenBy = (id: string) => (officer: string) => seesOfficer(id, officer);

  it.each(['SO01', 'SO03', 'AM01', 'ZM02', 'ADM001'])(
    'shows %s the activities and complaints of the officers within their scope',
    async (id) => {
      expect(await runAs(id)).toEqual(expectedReport(seenBy(id)));
    },
  );

  it('keeps the examples meaningful: an officer sees neither a colleague nor their manager', async () => {
    const report = (await runAs('SO01')) as { Activities: { SalesOfficer: string }[] };
    expect(new Set(report.Activities.map((a) => a.SalesOfficer))).toEqual(new Set(['SO01']));
    // ACT007 is AM01's own visit: the area manager and those above see it.
    expect(JSON.stringify(await runAs('AM01'))).toContain('ACT007');
  });

  it('narrows with a SalesOfficer, a Username and dates within the scope', async () => {
    expect(await runAs('AM01', { SalesOfficer: 'so02' })).toEqual(expectedReport(only('SO02')));
    expect(await runAs('ZM01', { Username: 'am.north', FromDate: '2026-06-01', ToDate: '2026-06-05' })).toEqual(
      expectedReport(seenBy('AM01'), '2026-06-01', '2026-06-05'),
    );
    expect(await runAs('SO01', { Username: 'so.one' })).toEqual(expectedReport(only('SO01')));
  });

  it('refuses a SalesOfficer outside the scope as FORBIDDEN naming it, and answers a Username outside it as an unknown one', async () => {
    await expect(runAs('SO01', { SalesOfficer: 'SO02' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'SalesOfficer',
    });
    await expect(runAs('AM02', { SalesOfficer: 'AM01' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      field: 'SalesOfficer',
    });
    const unknown = refusalShape(await runAs('SO01', { Username: 'nobody' }).catch((err: unknown) => err), 'nobody');
    expect(unknown).toMatchObject({ code: 'NOT_FOUND', field: 'Username' });
    for (const [id, username] of [
      ['SO01', 'am.north'],
      ['AM01', 'admin'],
    ]) {
      expect(refusalShape(await runAs(id, { Username: username }).catch((err: unknown) => err), username)).toEqual(
        unknown,
      );
    }
  });
});
