import type { Engine } from '../db/engine';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { fixedClock, runOperation, type TestContextOptions } from '../../test/support/operation';
import {
  createWarrantyRequest,
  syncWarrantyReqList,
  updateWarrantyTransportDetails,
  warrantyRequestFiles,
  type SyncPage,
} from './operations';
import { failure, insertWarrantyFixture, sample, validRequest } from './test-fixture';
import { officersSeenBy, principal, refusalShape, seesOfficer } from '../users/test-fixture';

const clock = fixedClock('2026-06-15T10:00:00.000Z');

/** Requests created (without a principal) in this order: WR0000001.. = [customer, officer]. */
const CREATES: Array<[string, string]> = [
  ['C001', 'SO01'],
  ['C004', 'SO03'],
  ['C002', 'SO01'],
  ['C003', 'SO02'],
];
const wr = (n: number) => `WR${String(n).padStart(7, '0')}`;
/** The requests (numbers, in creation = change order) whose officer `id` sees. */
const requestsSeenBy = (id: string) =>
  CREATES.map(([, officer], i) => ({ no: wr(i + 1), officer }))
    .filter((r) => seesOfficer(id, r.officer))
    .map((r) => r.no);
const officerOf = (requestNo: string) => CREATES[Number(requestNo.slice(2)) - 1][1];

describe.each(ENGINES)('warranty requests with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  const as = (id: string): TestContextOptions => ({ clock, principal: principal(id) });
  const requestCount = async () =>
    Number(
      (
        await engine.db
          .selectFrom('warranty_requests')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const statusOf = async (requestNo: string) =>
    (
      await engine.db
        .selectFrom('warranty_requests')
        .select('status')
        .where('request_no', '=', requestNo)
        .executeTakeFirstOrThrow()
    ).status;
  const fileCount = async (requestNo: string) =>
    Number(
      (
        await engine.db
          .selectFrom('warranty_files')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('request_no', '=', requestNo)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeEach(async () => {
    engine = await freshEngine(kind);
    await insertWarrantyFixture(engine.db);
    for (const [customer, officer] of CREATES)
      await runOperation(
        createWarrantyRequest,
        engine,
        validRequest({ CustomerCode: customer, SalesOfficer: officer }),
        { clock },
      );
  });

  afterEach(async () => {
    await engine.close();
  });

  describe('CreateWarrantyRequest', () => {
    const create = (id: string, fields: Record<string, string>) =>
      runOperation(createWarrantyRequest, engine, fields, as(id));

    it('lets an officer raise a request as themselves, a manager for an officer of their tree, the admin for anyone', async () => {
      expect((await create('SO01', validRequest({ CustomerCode: 'C002', SalesOfficer: 'so01' }))).data).toMatchObject({
        RequestNo: wr(5),
        SalesOfficer: 'SO01',
      });
      expect((await create('AM01', validRequest({ CustomerCode: 'C003', SalesOfficer: 'SO02' }))).data).toMatchObject({
        RequestNo: wr(6),
        SalesOfficer: 'SO02',
      });
      expect((await create('ADM001', validRequest({ CustomerCode: 'C004', SalesOfficer: 'SO03' }))).data).toMatchObject(
        { RequestNo: wr(7), SalesOfficer: 'SO03' },
      );
    });

    it('answers a customer, SalesOfficer or InvoiceNo outside the scope as one that does not exist, and stores nothing', async () => {
      expect(officersSeenBy('SO01')).toEqual(['SO01']);
      const asAbsent = async (
        id: string,
        field: string,
        hidden: string,
        absent: string,
        base: Record<string, string> = {},
      ) => {
        const outside = await failure(create(id, validRequest({ ...base, [field]: hidden })));
        const unknown = await failure(create(id, validRequest({ ...base, [field]: absent })));
        expect(outside).toMatchObject({ code: 'NOT_FOUND', field });
        expect(refusalShape(outside, hidden)).toEqual(refusalShape(unknown, absent));
      };
      await asAbsent('SO01', 'CustomerCode', 'C003', 'C999');
      await asAbsent('SO01', 'SalesOfficer', 'so.two', 'so.nobody', { CustomerCode: 'C001' });
      await asAbsent('AM02', 'SalesOfficer', 'SO01', 'SO99', { CustomerCode: 'C004' });
      // INV002 is an invoice of C003 (SO02's customer): its customer is not named.
      await asAbsent('SO01', 'InvoiceNo', 'INV002', 'INV999');
      expect(await requestCount()).toBe(CREATES.length);
    });

    it('keeps an invoice of another customer within the scope INVALID_PARAMETER, naming it', async () => {
      const error = await failure(create('AM01', validRequest({ InvoiceNo: 'INV002' })));
      expect(error).toMatchObject({
        code: 'INVALID_PARAMETER',
        field: 'InvoiceNo',
        message: 'InvoiceNo: invoice INV002 belongs to customer C003, not C001',
      });
    });

    it("makes a ClientRequestId the officer's own: another officer's request with the key is created as theirs", async () => {
      const first = await create('SO01', validRequest({ ClientRequestId: 'app-42' }));
      expect(first.data).toMatchObject({ RequestNo: wr(5), SalesOfficer: 'SO01' });
      expect((await create('SO01', validRequest({ ClientRequestId: 'app-42' }))).data).toEqual(first.data);
      expect((await create('AM01', validRequest({ ClientRequestId: 'app-42' }))).data).toEqual(first.data);
      const other = await create(
        'SO02',
        validRequest({ CustomerCode: 'C003', SalesOfficer: 'SO02', ClientRequestId: 'app-42' }),
      );
      expect(other.data).toMatchObject({ RequestNo: wr(6), SalesOfficer: 'SO02', ClientRequestId: 'app-42' });
      expect(
        await failure(create('SO01', validRequest({ ClientRequestId: 'app-42', SerialNo: 'SN-other' }))),
      ).toMatchObject({ code: 'CONFLICT', field: 'ClientRequestId' });
      expect(await requestCount()).toBe(CREATES.length + 2);
    });
  });

  describe('UpdateWarrantyTransportDetails', () => {
    const update = (id: string, requestNo: string) =>
      runOperation(
        updateWarrantyTransportDetails,
        engine,
        { RequestNo: requestNo, Transporter: 'VRL', LRNo: 'LR-1' },
        as(id),
      );

    it.each([
      ['SO01', 1],
      ['SO01', 4],
      ['SO02', 1],
      ['AM01', 4],
      ['AM02', 1],
      ['ZM02', 2],
      ['ADM001', 4],
    ])(
      '%s dispatching request %i: allowed within the scope of its officer, else NOT_FOUND as if absent, and unchanged',
      async (id, n) => {
        const requestNo = wr(n);
        if (seesOfficer(id, officerOf(requestNo))) {
          expect((await update(id, requestNo.toLowerCase())).data).toMatchObject({
            RequestNo: requestNo,
            Status: 'DISPATCHED',
            Transporter: 'VRL',
          });
        } else {
          const error = await failure(update(id, requestNo));
          expect(error).toMatchObject({ code: 'NOT_FOUND', field: 'RequestNo' });
          expect(refusalShape(error, requestNo)).toEqual(
            refusalShape(await failure(update(id, 'WR9999999')), 'WR9999999'),
          );
          expect(await statusOf(requestNo)).toBe('SUBMITTED');
        }
      },
    );

    it('still answers an unknown request with NOT_FOUND', async () => {
      expect(await failure(update('SO01', 'WR9999999'))).toMatchObject({ code: 'NOT_FOUND', field: 'RequestNo' });
    });
  });

  describe('WarrantyRequestFiles', () => {
    const upload = (id: string, requestNo: string, seed: number) =>
      runOperation(
        warrantyRequestFiles,
        engine,
        { RequestNo: requestNo },
        {
          ...as(id),
          files: [{ field: 'Photo', fileName: 'p.png', declaredType: 'image/png', content: sample.png(seed) }],
        },
      );
    const list = async (id: string, requestNo: string) =>
      (
        (await runOperation(warrantyRequestFiles, engine, { RequestNo: requestNo }, as(id))).data as {
          FileName: string;
        }[]
      ).length;

    it('stores and lists the files of a request within the scope of its officer', async () => {
      await upload('SO01', wr(1), 1);
      await upload('AM01', wr(1), 2);
      expect(await fileCount(wr(1))).toBe(2);
      expect(await list('SO01', wr(1))).toBe(2);
      expect(await list('ZM01', wr(1))).toBe(2);
      expect(await list('ADM001', wr(1))).toBe(2);
    });

    it('refuses to store or list the files of a request outside the scope as if it did not exist', async () => {
      await upload('SO01', wr(1), 1);
      const absent = refusalShape(await failure(upload('SO02', 'WR9999999', 3)), 'WR9999999');
      expect(absent.code).toBe('NOT_FOUND');
      expect(refusalShape(await failure(upload('SO02', wr(1), 3)), wr(1))).toEqual(absent);
      expect(refusalShape(await failure(upload('AM02', wr(3), 3)), wr(3))).toEqual(absent);
      expect(await fileCount(wr(1))).toBe(1);
      expect(await fileCount(wr(3))).toBe(0);
      const listed = await failure(runOperation(warrantyRequestFiles, engine, { RequestNo: wr(1) }, as('SO03')));
      expect(refusalShape(listed, wr(1))).toEqual(absent);
    });
  });

  describe('SyncWarrantyReqList', () => {
    const sync = async (id: string, fields: Record<string, string> = {}) =>
      (await runOperation(syncWarrantyReqList, engine, fields, as(id))).data as SyncPage;
    const numbers = (page: SyncPage) => page.Requests.map((r) => r.RequestNo);

    it.each(['SO01', 'SO02', 'AM01', 'ZM02', 'ADM001'])(
      'lists %s the requests of the officers within their scope, in change order',
      async (id) => {
        const page = await sync(id);
        expect(numbers(page)).toEqual(requestsSeenBy(id));
        expect(page.HasMore).toBe(false);
      },
    );

    it('pages through the bounded list exactly once', async () => {
      expect(requestsSeenBy('SO01')).toEqual([wr(1), wr(3)]);
      const first = await sync('SO01', { PageSize: '1' });
      expect(numbers(first)).toEqual([wr(1)]);
      expect(first.HasMore).toBe(true);
      const second = await sync('SO01', { PageSize: '1', Since: first.NextSince });
      expect(numbers(second)).toEqual([wr(3)]);
      expect(second.HasMore).toBe(false);
    });

    it('narrows with a SalesOfficer within the scope and refuses one outside it', async () => {
      expect(numbers(await sync('AM01', { SalesOfficer: 'so02' }))).toEqual([wr(4)]);
      expect(await failure(sync('SO01', { SalesOfficer: 'SO02' }))).toMatchObject({
        code: 'FORBIDDEN',
        field: 'SalesOfficer',
      });
      const error = await failure(sync('AM01', { SalesOfficer: 'so.three' }));
      expect(error).toMatchObject({ code: 'FORBIDDEN', field: 'SalesOfficer' });
      // The username is not mapped to the officer's id.
      expect(error.message).not.toContain('SO03');
    });
  });
});
