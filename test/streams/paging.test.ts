/**
 * Optional paging of the unbounded lists (docs/behaviour.md, "Paging"): PageSize and PageToken on
 * getCollectionStatements, getPCNList and ActivityReportAndComplaints. Walking the pages gives the
 * whole list exactly once, in order, also when rows are inserted between pages; without the fields
 * the answer is the whole list; a bad PageSize or PageToken is INVALID_PARAMETER naming the field;
 * over HTTP the envelope carries NextPageToken after Totals. On both engines.
 */
import type { EngineKind, Engine } from '../../src/db/engine';
import type { Operation, OperationResult } from '../../src/operations/types';
import { getCollectionStatements } from '../../src/collections/operations';
import { getPCNList } from '../../src/pcn/operations';
import { activityReportAndComplaints } from '../../src/activities/operations';
import { ENGINES } from '../support/engines';
import { MAIN_PATH } from '../support/interface-table';
import { runOperation } from '../support/operation';
import { insertListFixture, receiptRows } from './list-fixture';
import { getRaw, startStreamApp, type StreamApp } from './stream-support';

type Row = Record<string, unknown>;

/** Every page of an operation from the first; the pages' results in order. */
async function walk(
  engine: Engine,
  op: Operation,
  fields: Record<string, string>,
  between?: (page: number) => Promise<void>,
): Promise<OperationResult[]> {
  const pages: OperationResult[] = [];
  let token: string | undefined;
  do {
    const result = await runOperation(op, engine, token === undefined ? fields : { ...fields, PageToken: token });
    pages.push(result);
    expect(result.nextPageToken).not.toBeUndefined();
    token = result.nextPageToken ?? undefined;
    if (between) await between(pages.length);
  } while (token !== undefined && pages.length < 1000);
  return pages;
}

const rowsOf = (pages: OperationResult[]) => pages.flatMap((p) => p.data as Row[]);

describe.each(ENGINES)('paging: %s', (kind: EngineKind) => {
  let t: StreamApp;
  beforeAll(async () => {
    t = await startStreamApp(kind, (engine) =>
      insertListFixture(engine.db, { receipts: 203, cheques: 101, activities: 67, complaints: 41 }),
    );
  });
  afterAll(() => t.stop());

  it.each([
    [{}],
    [{ SortBy: 'Amount', SortDirection: 'DESC' }],
    [{ SortBy: 'CustomerName', SalesOfficer: 'SO01' }],
    [{ SortBy: 'ReceiptNo', FromDate: '2026-01-05', ToDate: '2026-02-01' }],
    [{ SortBy: 'PaymentMethod', SortDirection: 'desc' }],
  ])(
    'getCollectionStatements %j: the pages are the whole list, once each, in order',
    async (fields: Record<string, string>) => {
      const whole = await runOperation(getCollectionStatements, t.engine, fields);
      const pages = await walk(t.engine, getCollectionStatements, { ...fields, PageSize: '17' });
      expect(rowsOf(pages)).toEqual(whole.data);
      expect(pages.slice(0, -1).every((p) => (p.data as Row[]).length === 17)).toBe(true);
      expect(pages[pages.length - 1].nextPageToken).toBeNull();
      const counted = pages.reduce((n, p) => n + p.totals!.Count, 0);
      const summed = pages.reduce((sum, p) => sum + Math.round(p.totals!.Amount * 100), 0);
      expect(counted).toBe(whole.totals!.Count);
      expect(summed).toBe(Math.round(whole.totals!.Amount * 100));
    },
  );

  it('getPCNList: the pages are the whole list, once each, in order', async () => {
    const whole = await runOperation(getPCNList, t.engine, { PaymentType: 'PDC' });
    const pages = await walk(t.engine, getPCNList, { PaymentType: 'PDC', PageSize: '5' });
    expect(rowsOf(pages)).toEqual(whole.data);
    expect(pages.length).toBe(
      Math.ceil((whole.data as Row[]).length / 5) + ((whole.data as Row[]).length % 5 === 0 ? 1 : 0),
    );
  });

  it('ActivityReportAndComplaints: the pages hold both lists whole, each page summarising its own rows', async () => {
    const whole = (await runOperation(activityReportAndComplaints, t.engine, {})).data as {
      Activities: Row[];
      Complaints: Row[];
    };
    const pages = await walk(t.engine, activityReportAndComplaints, { PageSize: '10' });
    const data = pages.map((p) => p.data as { Activities: Row[]; Complaints: Row[]; Summary: Record<string, number> });
    expect(data.flatMap((d) => d.Activities)).toEqual(whole.Activities);
    expect(data.flatMap((d) => d.Complaints)).toEqual(whole.Complaints);
    for (const page of data) {
      expect(page.Summary.ActivityCount).toBe(page.Activities.length);
      expect(page.Summary.ComplaintCount).toBe(page.Complaints.length);
      expect(page.Summary.OpenComplaints).toBe(page.Complaints.filter((c) => c.Status === 'OPEN').length);
    }
    expect(pages.length).toBe(Math.ceil(67 / 10));
  });

  it('gives every row once when rows are inserted between pages (keyset, not offset)', async () => {
    const fields = { SortBy: 'ReceiptDate', PageSize: '25' };
    const before = (await runOperation(getCollectionStatements, t.engine, { SortBy: 'ReceiptDate' })).data as Row[];
    const extra = receiptRows(40, 'NEW');
    const pages = await walk(t.engine, getCollectionStatements, fields, async (page) => {
      // After each of the first four pages, ten more receipts spread over the whole date range.
      if (page <= 4)
        await t.engine.db
          .insertInto('receipts')
          .values(extra.slice((page - 1) * 10, page * 10))
          .execute();
    });
    const seen = rowsOf(pages).map((r) => r.ReceiptNo as string);
    expect(new Set(seen).size).toBe(seen.length);
    for (const row of before) expect(seen).toContain(row.ReceiptNo);
    const after = (await runOperation(getCollectionStatements, t.engine, { SortBy: 'ReceiptDate' })).data as Row[];
    // What the walk gave is in the final order, and it misses only new rows that sort before where it already was.
    expect(after.map((r) => r.ReceiptNo).filter((no) => seen.includes(no as string))).toEqual(seen);
    expect(seen.filter((no) => no.startsWith('NEW')).length).toBeGreaterThan(0);
    await t.engine.db.deleteFrom('receipts').where('receipt_no', 'like', 'NEW%').execute();
  });

  it('answers the whole list without paging fields, and no NextPageToken', async () => {
    const result = await runOperation(getPCNList, t.engine, {});
    expect((result.data as Row[]).length).toBe(101);
    expect(result).not.toHaveProperty('nextPageToken');
  });

  it.each([
    [getCollectionStatements, { PageSize: '0' }, 'PageSize'],
    [getCollectionStatements, { PageSize: 'ten' }, 'PageSize'],
    [getPCNList, { PageSize: '5001' }, 'PageSize'],
    [activityReportAndComplaints, { PageSize: '-1' }, 'PageSize'],
    [getCollectionStatements, { PageToken: 'not a token!' }, 'PageToken'],
    [getPCNList, { PageToken: 'eyJ2IjoyfQ' }, 'PageToken'],
    [activityReportAndComplaints, { PageToken: Buffer.from('{"v":1,"k":[1,2]}').toString('base64url') }, 'PageToken'],
  ] as const)('%#: %o is INVALID_PARAMETER naming %s', async (op, fields, field) => {
    await expect(runOperation(op, t.engine, fields)).rejects.toMatchObject({ code: 'INVALID_PARAMETER', field });
  });

  it('refuses a token given for another sort order', async () => {
    const first = await runOperation(getCollectionStatements, t.engine, { SortBy: 'Amount', PageSize: '3' });
    const token = first.nextPageToken!;
    await expect(
      runOperation(getCollectionStatements, t.engine, { SortBy: 'Amount', PageSize: '3', PageToken: token }),
    ).resolves.toMatchObject({ nextPageToken: expect.any(String) });
    // A token without PageSize gives a page of the default size: here the rest of the list.
    await expect(
      runOperation(getCollectionStatements, t.engine, { SortBy: 'Amount', PageToken: token }),
    ).resolves.toMatchObject({ nextPageToken: null });
    await expect(
      runOperation(getCollectionStatements, t.engine, { SortBy: 'ReceiptNo', PageToken: token }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMETER', field: 'PageToken' });
    await expect(runOperation(getPCNList, t.engine, { PageToken: token })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      field: 'PageToken',
    });
  });

  it('over HTTP: NextPageToken follows Totals, a page token walks on, and a bad PageSize is a JSON failure naming it', async () => {
    const first = JSON.parse(
      (await getRaw(t.port, `${MAIN_PATH}/getCollectionStatements?pagesize=50`)).body.toString('utf8'),
    );
    expect(Object.keys(first)).toEqual(['Success', 'Message', 'Count', 'Data', 'Totals', 'NextPageToken']);
    expect(first.Count).toBe(50);
    const second = JSON.parse(
      (
        await getRaw(t.port, `${MAIN_PATH}/getCollectionStatements?PageSize=50&PageToken=${first.NextPageToken}`)
      ).body.toString('utf8'),
    );
    expect(second.Data[0].ReceiptNo).not.toBe(first.Data[0].ReceiptNo);
    const whole = (await runOperation(getCollectionStatements, t.engine, {})).data as Row[];
    expect([...first.Data, ...second.Data]).toEqual(whole.slice(0, 100));
    const bad = JSON.parse((await getRaw(t.port, `${MAIN_PATH}/getPCNList?PageSize=abc`)).body.toString('utf8'));
    expect(bad).toEqual({
      Success: false,
      Code: 'INVALID_PARAMETER',
      Message: "PageSize: 'abc' is not a whole number between 1 and 5000",
      Field: 'PageSize',
      Data: null,
    });
  });
});
