import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { fixedClock, runOperation } from '../../test/support/operation';
import {
  createWarrantyRequest,
  syncWarrantyReqList,
  updateWarrantyTransportDetails,
  warrantyRequestFiles,
  type SyncPage,
} from './operations';
import { failure, insertWarrantyFixture, sample, validRequest } from './test-fixture';

const NOW = '2026-06-15T10:00:00.000Z';
const clock = fixedClock(NOW);

/** Requests created in this order: [customer, officer]; C001/C002 belong to SO01, C003 to SO02, C004 to SO03. */
const CREATES: Array<[string, string]> = [
  ['C001', 'SO01'],
  ['C004', 'SO03'],
  ['C002', 'SO01'],
  ['C003', 'SO02'],
  ['C001', 'SO01'],
  ['C004', 'SO03'],
  ['C003', 'SO02'],
];
const wr = (n: number) => `WR${String(n).padStart(7, '0')}`;

describe.each(ENGINES)('SyncWarrantyReqList: %s', (kind) => {
  let engine: Engine;
  const sync = async (fields: Record<string, string> = {}) =>
    (await runOperation(syncWarrantyReqList, engine, fields, { clock })).data as SyncPage;
  const create = (fields: Record<string, string>) => runOperation(createWarrantyRequest, engine, fields, { clock });
  const update = (fields: Record<string, string>) =>
    runOperation(updateWarrantyTransportDetails, engine, fields, { clock });
  const upload = (requestNo: string, content: Buffer) =>
    runOperation(
      warrantyRequestFiles,
      engine,
      { RequestNo: requestNo },
      { clock, files: [{ field: 'Photo', fileName: 'p.png', declaredType: 'image/png', content }] },
    );
  const numbers = (page: SyncPage) => page.Requests.map((r) => r.RequestNo);

  beforeEach(async () => {
    engine = await freshEngine(kind);
  });

  afterEach(async () => {
    await engine.close();
  });

  it('on an empty database, with no fields, returns nothing from the beginning', async () => {
    expect(await sync()).toEqual({ Requests: [], NextSince: '0', HasMore: false });
  });

  describe('with requests', () => {
    beforeEach(async () => {
      await insertWarrantyFixture(engine.db);
      for (const [customer, officer] of CREATES)
        await create(validRequest({ CustomerCode: customer, SalesOfficer: officer }));
    });

    it('returns the request objects with their file count, in change order', async () => {
      await upload('WR0000002', sample.png(1));
      await upload('WR0000002', sample.pdf(2));
      const page = await sync({ PageSize: '1' });
      expect(page).toEqual({
        Requests: [
          {
            RequestNo: 'WR0000001',
            ClientRequestId: null,
            CustomerCode: 'C001',
            SalesOfficer: 'SO01',
            ProductCode: 'P001',
            SerialNo: 'SN-1001',
            InvoiceNo: null,
            PurchaseDate: null,
            Complaint: 'Pump stops after ten minutes',
            Status: 'SUBMITTED',
            Transporter: null,
            LRNo: null,
            LRDate: null,
            VehicleNo: null,
            CreatedAt: NOW,
            UpdatedAt: NOW,
            Version: 1,
            FileCount: 0,
          },
        ],
        NextSince: '1',
        HasMore: true,
      });
      // WR0000002 changed twice after the creates (change_seq 8 and 9): it comes last, at version 3, with 2 files.
      const all = await sync();
      expect(numbers(all)).toEqual([
        'WR0000001',
        'WR0000003',
        'WR0000004',
        'WR0000005',
        'WR0000006',
        'WR0000007',
        'WR0000002',
      ]);
      expect(all.Requests[6]).toMatchObject({ Version: 3, FileCount: 2 });
      expect(all.NextSince).toBe('9');
    });

    it('pages with PageSize and NextSince until HasMore is false, then returns nothing new', async () => {
      const first = await sync({ PageSize: '3' });
      expect([numbers(first), first.NextSince, first.HasMore]).toEqual([[wr(1), wr(2), wr(3)], '3', true]);
      const second = await sync({ PageSize: '3', Since: first.NextSince });
      expect([numbers(second), second.NextSince, second.HasMore]).toEqual([[wr(4), wr(5), wr(6)], '6', true]);
      const third = await sync({ PageSize: '3', Since: second.NextSince });
      expect([numbers(third), third.NextSince, third.HasMore]).toEqual([[wr(7)], '7', false]);
      expect(await sync({ PageSize: '3', Since: '7' })).toEqual({ Requests: [], NextSince: '7', HasMore: false });
      // A page that ends exactly at the last change says there is no more.
      expect(await sync({ PageSize: '7' })).toMatchObject({ NextSince: '7', HasMore: false });
    });

    it('a changed request comes again after the Since the app holds, with its new version', async () => {
      await update({ RequestNo: 'WR0000003', Transporter: 'VRL', LRNo: 'LR-1' });
      const page = await sync({ Since: '7' });
      expect(page.Requests).toEqual([
        expect.objectContaining({ RequestNo: 'WR0000003', Status: 'DISPATCHED', Transporter: 'VRL', Version: 2 }),
      ]);
      expect(page.NextSince).toBe('8');
    });

    it('SalesOfficer narrows to that officer, without regard to case; an unknown officer has nothing', async () => {
      const so01 = CREATES.map(([, o], i) => [o, wr(i + 1)])
        .filter(([o]) => o === 'SO01')
        .map(([, n]) => n);
      expect(so01).toEqual([wr(1), wr(3), wr(5)]);
      expect(numbers(await sync({ SalesOfficer: 'SO01' }))).toEqual(so01);
      expect(numbers(await sync({ SalesOfficer: 'so01' }))).toEqual(so01);
      const paged = await sync({ SalesOfficer: 'SO01', PageSize: '2' });
      expect([numbers(paged), paged.NextSince, paged.HasMore]).toEqual([[wr(1), wr(3)], '3', true]);
      expect(numbers(await sync({ SalesOfficer: 'SO01', Since: '3' }))).toEqual([wr(5)]);
      expect(await sync({ SalesOfficer: 'SO99', Since: '2' })).toEqual({
        Requests: [],
        NextSince: '2',
        HasMore: false,
      });
    });

    it.each(['abc', '-1', '1.5', '1e3', 'WR0000001', '1234567890123456'])(
      'Since %j is INVALID_PARAMETER',
      async (since) => {
        const err = await failure(sync({ Since: since }));
        expect(err).toMatchObject({ code: 'INVALID_PARAMETER', field: 'Since' });
        expect(err.message.startsWith(`Since: '${since}'`)).toBe(true);
      },
    );

    it.each(['0', '5001', 'ten', '-3', '2.5'])('PageSize %j is INVALID_PARAMETER', async (size) => {
      const err = await failure(sync({ PageSize: size }));
      expect(err).toMatchObject({
        code: 'INVALID_PARAMETER',
        field: 'PageSize',
        message: `PageSize: '${size}' is not a whole number between 1 and 5000`,
      });
    });

    it('PageSize 5000 is accepted; a blank Since starts from the beginning', async () => {
      expect(numbers(await sync({ PageSize: '5000', Since: '  ' }))).toHaveLength(7);
    });
  });

  it('PageSize defaults to 500', async () => {
    await insertWarrantyFixture(engine.db);
    const rows: Database['warranty_requests'][] = Array.from({ length: 501 }, (_, i) => ({
      request_no: wr(i + 1),
      client_request_id: null,
      customer_code: 'C001',
      sales_officer_id: 'SO01',
      product_code: 'P001',
      serial_no: `S${i}`,
      invoice_no: null,
      purchase_date: null,
      complaint: 'c',
      status: 'SUBMITTED',
      transporter: null,
      lr_no: null,
      lr_date: null,
      vehicle_no: null,
      created_at: NOW,
      updated_at: NOW,
      version: 1,
      change_seq: i + 1,
    }));
    await engine.db.insertInto('warranty_requests').values(rows).execute();
    const page = await sync();
    expect([page.Requests.length, page.NextSince, page.HasMore]).toEqual([500, '500', true]);
    expect(numbers(await sync({ Since: page.NextSince }))).toEqual([wr(501)]);
  });

  it('a reader following NextSince while writers create and change requests sees every change once, in order', async () => {
    await insertWarrantyFixture(engine.db);
    const owners: Array<[string, string]> = [
      ['C001', 'SO01'],
      ['C003', 'SO02'],
      ['C004', 'SO03'],
      ['C002', 'SO01'],
    ];
    const writer = async (w: number) => {
      const mine: string[] = [];
      for (let i = 0; i < 8; i++) {
        const [customer, officer] = owners[w];
        const created = await create(
          validRequest({ CustomerCode: customer, SalesOfficer: officer, ClientRequestId: `w${w}-${i}` }),
        );
        const no = (created.data as { RequestNo: string }).RequestNo;
        mine.push(no);
        await update({ RequestNo: no, Transporter: 'Gati', LRNo: `LR-${w}-${i}` });
        await upload(no, sample.png(w * 100 + i));
        await update({ RequestNo: mine[Math.floor(i / 2)], Transporter: 'Gati', LRNo: `LR-${w}-${i}-fix` });
      }
    };

    const seen: Array<[string, number]> = [];
    const tokens: number[] = [];
    let since = '';
    const drain = async () => {
      for (;;) {
        const page = await sync({ Since: since, PageSize: '5' });
        for (const r of page.Requests) seen.push([r.RequestNo, r.Version]);
        tokens.push(Number(page.NextSince));
        since = page.NextSince;
        if (!page.HasMore) return;
      }
    };
    let writing = true;
    const reader = (async () => {
      while (writing) {
        await drain();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await drain();
    })();
    await Promise.all([0, 1, 2, 3].map(writer));
    writing = false;
    await reader;

    const pairs = seen.map(([no, v]) => `${no}@${v}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    const lastSeen = new Map<string, number>();
    for (const [no, version] of seen) {
      expect(version).toBeGreaterThan(lastSeen.get(no) ?? 0);
      lastSeen.set(no, version);
    }
    const final = await engine.db.selectFrom('warranty_requests').select(['request_no', 'version']).execute();
    expect(final).toHaveLength(32);
    expect(Object.fromEntries(lastSeen)).toEqual(Object.fromEntries(final.map((r) => [r.request_no, r.version])));
  });
});
