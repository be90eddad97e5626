import { sql } from 'kysely';
import type { Engine } from '../db/engine';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { fixedClock, runOperation } from '../../test/support/operation';
import { createWarrantyRequest } from './operations';
import { INVOICES, failure, insertWarrantyFixture, validRequest } from './test-fixture';

const NOW = '2026-06-15T10:00:00.000Z';
const clock = fixedClock(NOW);
const create = (engine: Engine, fields: Record<string, string>) =>
  runOperation(createWarrantyRequest, engine, fields, { clock });

async function requestRows(engine: Engine) {
  return engine.db.selectFrom('warranty_requests').selectAll().orderBy('request_no').execute();
}

async function counter(engine: Engine, name: string): Promise<number> {
  const row = await engine.db.selectFrom('counters').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Number(row.value);
}

describe.each(ENGINES)('CreateWarrantyRequest: %s', (kind) => {
  let engine: Engine;

  beforeEach(async () => {
    engine = await freshEngine(kind);
    await insertWarrantyFixture(engine.db);
  });

  afterEach(async () => {
    await engine.close();
  });

  it('creates a SUBMITTED request, numbered from the counters, and returns it', async () => {
    const result = await create(
      engine,
      validRequest({ InvoiceNo: 'INV001', PurchaseDate: '05/05/2026', ClientRequestId: 'app-1' }),
    );
    const expected = {
      RequestNo: 'WR0000001',
      ClientRequestId: 'app-1',
      CustomerCode: 'C001',
      SalesOfficer: 'SO01',
      ProductCode: 'P001',
      SerialNo: 'SN-1001',
      InvoiceNo: 'INV001',
      PurchaseDate: '2026-05-05',
      Complaint: 'Pump stops after ten minutes',
      Status: 'SUBMITTED',
      Transporter: null,
      LRNo: null,
      LRDate: null,
      VehicleNo: null,
      CreatedAt: NOW,
      UpdatedAt: NOW,
      Version: 1,
    };
    expect(result.data).toEqual(expected);
    expect(result.message).toBe('Warranty request WR0000001 created.');

    const rows = await requestRows(engine);
    expect(rows).toEqual([
      {
        request_no: 'WR0000001',
        client_request_id: 'app-1',
        customer_code: 'C001',
        sales_officer_id: 'SO01',
        product_code: 'P001',
        serial_no: 'SN-1001',
        invoice_no: 'INV001',
        purchase_date: '2026-05-05',
        complaint: 'Pump stops after ten minutes',
        status: 'SUBMITTED',
        transporter: null,
        lr_no: null,
        lr_date: null,
        vehicle_no: null,
        created_at: NOW,
        updated_at: NOW,
        version: 1,
        change_seq: 1,
      },
    ]);
    expect(await counter(engine, 'warranty_request_no')).toBe(1);
    expect(await counter(engine, 'warranty_change_seq')).toBe(1);
  });

  it('numbers requests one after the other and takes a new change_seq for each', async () => {
    await create(engine, validRequest());
    const second = await create(
      engine,
      validRequest({ CustomerCode: 'C004', SalesOfficer: 'SO03', ProductCode: 'P004' }),
    );
    expect((second.data as { RequestNo: string }).RequestNo).toBe('WR0000002');
    const rows = await requestRows(engine);
    expect(rows.map((r) => [r.request_no, r.change_seq, r.client_request_id, r.invoice_no, r.purchase_date])).toEqual([
      ['WR0000001', 1, null, null, null],
      ['WR0000002', 2, null, null, null],
    ]);
  });

  it('matches codes without regard to case and stores their spelling', async () => {
    const result = await create(
      engine,
      validRequest({ CustomerCode: 'c001', SalesOfficer: 'so01', ProductCode: 'p003', InvoiceNo: 'inv001' }),
    );
    expect(result.data).toMatchObject({
      CustomerCode: 'C001',
      SalesOfficer: 'SO01',
      ProductCode: 'P003',
      InvoiceNo: 'INV001',
    });
  });

  it('prefers the exact spelling when two stored codes differ only by case (docs/behaviour.md)', async () => {
    await engine.db
      .insertInto('products')
      .values({ code: 'p003', name: 'Motor 3kW (old code)', category_code: 'CAT02', unit_price: 99900 })
      .execute();
    expect((await create(engine, validRequest({ ProductCode: 'p003' }))).data).toMatchObject({ ProductCode: 'p003' });
    expect((await create(engine, validRequest({ ProductCode: 'P003' }))).data).toMatchObject({ ProductCode: 'P003' });
    expect((await create(engine, validRequest({ ProductCode: ' P003 ' }))).data).toMatchObject({ ProductCode: 'P003' });
  });

  it('finds an invoice stored in lower case when its number is typed in upper case, and stores its spelling', async () => {
    await engine.db
      .insertInto('invoices')
      .values({ ...INVOICES[0], invoice_no: 'inv-low1' })
      .execute();
    const result = await create(engine, validRequest({ InvoiceNo: 'INV-LOW1' }));
    expect(result.data).toMatchObject({ InvoiceNo: 'inv-low1' });
  });

  it('accepts the officer by username too', async () => {
    const result = await create(engine, validRequest({ SalesOfficer: 'SO.One' }));
    expect(result.data).toMatchObject({ SalesOfficer: 'SO01' });
  });

  describe('required fields', () => {
    const order = ['CustomerCode', 'SalesOfficer', 'ProductCode', 'SerialNo', 'Complaint'];

    it.each(order)('%s missing or blank: MISSING_PARAMETER naming it', async (field) => {
      for (const value of [undefined, '', '   ']) {
        const fields = validRequest();
        if (value === undefined) delete fields[field];
        else fields[field] = value;
        const err = await failure(create(engine, fields));
        expect(err).toMatchObject({ code: 'MISSING_PARAMETER', field });
        expect(err.message.startsWith(field)).toBe(true);
      }
    });

    it('names the first missing field in the documented order', async () => {
      expect(await failure(create(engine, {}))).toMatchObject({ code: 'MISSING_PARAMETER', field: 'CustomerCode' });
      expect(await failure(create(engine, { Complaint: 'x', SerialNo: 'y', CustomerCode: 'C001' }))).toMatchObject({
        field: 'SalesOfficer',
      });
      expect(
        await failure(create(engine, { CustomerCode: 'C001', SalesOfficer: 'SO01', ProductCode: 'P001' })),
      ).toMatchObject({ field: 'SerialNo' });
      expect(await requestRows(engine)).toEqual([]);
    });
  });

  describe('references', () => {
    it.each([
      ['CustomerCode', { CustomerCode: 'C999' }],
      ['SalesOfficer', { SalesOfficer: 'SO99' }],
      ['ProductCode', { ProductCode: 'P999' }],
      ['InvoiceNo', { InvoiceNo: 'INV999' }],
    ])('an unknown %s is NOT_FOUND naming it', async (field, overrides) => {
      const err = await failure(create(engine, validRequest(overrides)));
      expect(err).toMatchObject({ code: 'NOT_FOUND', field });
      expect(err.message).toContain(Object.values(overrides)[0]);
    });

    it('an officer who does not own the customer is FORBIDDEN', async () => {
      for (const officer of ['SO02', 'AM01', 'ADM001']) {
        const err = await failure(create(engine, validRequest({ SalesOfficer: officer })));
        expect(err).toMatchObject({ code: 'FORBIDDEN', field: 'SalesOfficer' });
        expect(err.message).toBe(`SalesOfficer: ${officer} is not the sales officer of customer C001`);
      }
    });

    it('an inactive officer is FORBIDDEN', async () => {
      await engine.db.updateTable('users').set({ active: 0 }).where('id', '=', 'SO02').execute();
      const err = await failure(create(engine, validRequest({ CustomerCode: 'C003', SalesOfficer: 'SO02' })));
      expect(err).toMatchObject({
        code: 'FORBIDDEN',
        field: 'SalesOfficer',
        message: 'SalesOfficer: user SO02 is not active',
      });
    });

    it('an invoice of another customer is INVALID_PARAMETER InvoiceNo', async () => {
      const err = await failure(create(engine, validRequest({ InvoiceNo: 'INV002' })));
      expect(err).toMatchObject({ code: 'INVALID_PARAMETER', field: 'InvoiceNo' });
      expect(err.message).toBe('InvoiceNo: invoice INV002 belongs to customer C003, not C001');
    });

    it('an inactive customer may still claim warranty for what it bought', async () => {
      const result = await create(engine, validRequest({ CustomerCode: 'C005', SalesOfficer: 'SO03' }));
      expect(result.data).toMatchObject({ CustomerCode: 'C005', Status: 'SUBMITTED' });
    });
  });

  describe('values', () => {
    it('PurchaseDate is read in every accepted form, up to and including today', async () => {
      const forms: Array<[string, string]> = [
        ['2026-06-15', '2026-06-15'],
        ['01/02/2026', '2026-02-01'],
        ['3-Mar-2025', '2025-03-03'],
        ['15.06.2026', '2026-06-15'],
      ];
      for (const [value, stored] of forms) {
        const result = await create(engine, validRequest({ PurchaseDate: value }));
        expect(result.data).toMatchObject({ PurchaseDate: stored });
      }
    });

    it('"today" is the latest calendar date anywhere (UTC+14): at 10:00 UTC tomorrow has begun there', async () => {
      const at = (iso: string) =>
        runOperation(createWarrantyRequest, engine, validRequest({ PurchaseDate: '2026-06-16' }), {
          clock: fixedClock(iso),
        });
      const err = await failure(at('2026-06-15T09:59:59.999Z'));
      expect(err).toMatchObject({
        code: 'INVALID_PARAMETER',
        field: 'PurchaseDate',
        message: "PurchaseDate: '2026-06-16' is after today (2026-06-15)",
      });
      expect((await at('2026-06-15T10:00:00.000Z')).data).toMatchObject({ PurchaseDate: '2026-06-16' });
    });

    it.each([
      ['2026-06-17', 'is after today (2026-06-16)'],
      ['31/02/2026', 'is not a date'],
      ['yesterday', 'is not a date'],
    ])('PurchaseDate %s is INVALID_PARAMETER', async (value, text) => {
      const err = await failure(create(engine, validRequest({ PurchaseDate: value })));
      expect(err).toMatchObject({ code: 'INVALID_PARAMETER', field: 'PurchaseDate' });
      expect(err.message).toContain(`PurchaseDate: '${value}' ${text}`);
    });

    it.each([
      ['SerialNo', 100],
      ['Complaint', 2000],
      ['ClientRequestId', 100],
      ['CustomerCode', 50],
    ])('%s takes at most %i characters', async (field, max) => {
      const err = await failure(create(engine, validRequest({ [field]: 'x'.repeat(max + 1) })));
      expect(err).toMatchObject({
        code: 'INVALID_PARAMETER',
        field,
        message: `${field}: is ${max + 1} characters long; at most ${max} are accepted`,
      });
      if (field !== 'CustomerCode') {
        const ok = await create(engine, validRequest({ [field]: 'y'.repeat(max) }));
        expect((ok.data as Record<string, unknown>)[field]).toBe('y'.repeat(max));
      }
    });

    it('a refused request writes nothing and takes no number', async () => {
      await failure(create(engine, validRequest({ SalesOfficer: 'SO02' })));
      await failure(create(engine, validRequest({ InvoiceNo: 'INV002' })));
      expect(await requestRows(engine)).toEqual([]);
      expect(await counter(engine, 'warranty_request_no')).toBe(0);
      expect(await counter(engine, 'warranty_change_seq')).toBe(0);
      const result = await create(engine, validRequest());
      expect((result.data as { RequestNo: string }).RequestNo).toBe('WR0000001');
    });
  });

  describe('ClientRequestId', () => {
    it('the same request again with its key returns the first request unchanged', async () => {
      const first = await create(
        engine,
        validRequest({ ClientRequestId: 'abc-123', InvoiceNo: 'INV001', PurchaseDate: '2026-05-05' }),
      );
      // The same parameters as the operation reads them: codes in another case, another date form, spaces.
      const same = validRequest({
        ClientRequestId: 'abc-123',
        CustomerCode: 'c001',
        SalesOfficer: 'so01',
        ProductCode: ' p001',
        InvoiceNo: 'inv001',
        PurchaseDate: '05/05/2026',
      });
      const again = await runOperation(createWarrantyRequest, engine, same, {
        clock: fixedClock('2026-06-15T11:00:00Z'),
      });
      expect(again.data).toEqual(first.data);
      expect(again.message).toBe(
        "ClientRequestId 'abc-123' was sent before: the earlier request WR0000001 is returned unchanged.",
      );
      expect(await requestRows(engine)).toHaveLength(1);
      expect(await counter(engine, 'warranty_request_no')).toBe(1);
      expect(await counter(engine, 'warranty_change_seq')).toBe(1);
    });

    it.each([
      ['Complaint', { Complaint: 'Different text' }],
      ['SerialNo', { SerialNo: 'SN-2' }],
      ['ProductCode', { ProductCode: 'P002' }],
      ['InvoiceNo', { InvoiceNo: 'INV001' }],
      ['PurchaseDate', { PurchaseDate: '2026-05-06' }],
    ])(
      'the key with a different request (%s) is CONFLICT naming ClientRequestId, and nothing is written',
      async (_, change) => {
        await create(engine, validRequest({ ClientRequestId: 'abc-123', PurchaseDate: '2026-05-05' }));
        const err = await failure(
          create(engine, validRequest({ ClientRequestId: 'abc-123', PurchaseDate: '2026-05-05', ...change })),
        );
        expect(err).toMatchObject({ code: 'CONFLICT', field: 'ClientRequestId' });
        expect(err.message).toBe(
          "ClientRequestId: 'abc-123' was sent before with another request (WR0000001); use a new key for a new request",
        );
        expect(await requestRows(engine)).toHaveLength(1);
        expect(await counter(engine, 'warranty_request_no')).toBe(1);
      },
    );

    it("another officer's request with the same key is created as its own; each officer's key replays their own", async () => {
      const first = await create(engine, validRequest({ ClientRequestId: 'order-2026-0001' }));
      const other = await create(
        engine,
        validRequest({ CustomerCode: 'C003', SalesOfficer: 'SO02', ClientRequestId: 'order-2026-0001' }),
      );
      expect(other.data).toMatchObject({
        RequestNo: 'WR0000002',
        SalesOfficer: 'SO02',
        CustomerCode: 'C003',
        ClientRequestId: 'order-2026-0001',
      });
      expect(other.message).toBe('Warranty request WR0000002 created.');
      expect((await create(engine, validRequest({ ClientRequestId: 'order-2026-0001' }))).data).toEqual(first.data);
      expect(
        (
          await create(
            engine,
            validRequest({ CustomerCode: 'C003', SalesOfficer: 'SO02', ClientRequestId: 'order-2026-0001' }),
          )
        ).data,
      ).toEqual(other.data);
      expect((await requestRows(engine)).map((r) => [r.sales_officer_id, r.client_request_id])).toEqual([
        ['SO01', 'order-2026-0001'],
        ['SO02', 'order-2026-0001'],
      ]);
    });

    it('a stored row is compared whatever wrote it (an import, a request stored before keys were compared)', async () => {
      await engine.db
        .insertInto('warranty_requests')
        .values({
          request_no: 'WR0000100',
          client_request_id: 'imported',
          customer_code: 'C001',
          sales_officer_id: 'SO01',
          product_code: 'P001',
          serial_no: 'SN-1001',
          invoice_no: null,
          purchase_date: null,
          complaint: 'Pump stops after ten minutes',
          status: 'DISPATCHED',
          transporter: 'X',
          lr_no: 'L1',
          lr_date: null,
          vehicle_no: null,
          created_at: NOW,
          updated_at: NOW,
          version: 2,
          change_seq: 100,
        })
        .execute();
      expect((await create(engine, validRequest({ ClientRequestId: 'imported' }))).data).toMatchObject({
        RequestNo: 'WR0000100',
        Status: 'DISPATCHED',
      });
      expect(
        await failure(create(engine, validRequest({ ClientRequestId: 'imported', SerialNo: 'SN-9' }))),
      ).toMatchObject({ code: 'CONFLICT', field: 'ClientRequestId' });
    });

    it('a retry is answered even after the master data changed', async () => {
      const first = await create(engine, validRequest({ ClientRequestId: 'k1' }));
      await engine.db.updateTable('customers').set({ sales_officer_id: 'SO02' }).where('code', '=', 'C001').execute();
      const again = await create(engine, validRequest({ ClientRequestId: 'k1' }));
      expect(again.data).toEqual(first.data);
    });

    it('keys are compared exactly: another key is another request', async () => {
      await create(engine, validRequest({ ClientRequestId: 'Key' }));
      const other = await create(engine, validRequest({ ClientRequestId: 'key' }));
      expect((other.data as { RequestNo: string }).RequestNo).toBe('WR0000002');
    });

    it('50 parallel creates of one request with one key write one row, and every answer carries its number', async () => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => create(engine, validRequest({ ClientRequestId: 'same-key' }))),
      );
      const rows = await requestRows(engine);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        request_no: 'WR0000001',
        client_request_id: 'same-key',
        version: 1,
        change_seq: 1,
      });
      expect(new Set(answers.map((a) => (a.data as { RequestNo: string }).RequestNo))).toEqual(new Set(['WR0000001']));
      expect(answers.filter((a) => a.message === 'Warranty request WR0000001 created.')).toHaveLength(1);
      for (const answer of answers) expect(answer.data).toEqual(answers[0].data);
      expect(await counter(engine, 'warranty_request_no')).toBe(1);
    });

    it('parallel creates of different requests with one key store one; every other answer is CONFLICT', async () => {
      const answers = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          create(engine, validRequest({ ClientRequestId: 'one-key', SerialNo: `SN-${i}` })),
        ),
      );
      const created = answers.filter((a) => a.status === 'fulfilled');
      expect(created).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status === 'rejected'))
        expect(refused.reason).toMatchObject({ code: 'CONFLICT', field: 'ClientRequestId' });
      expect(await requestRows(engine)).toHaveLength(1);
    });

    it('parallel creates with different keys all get their own number', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => create(engine, validRequest({ ClientRequestId: `key-${i}` }))),
      );
      const numbers = answers.map((a) => (a.data as { RequestNo: string }).RequestNo);
      expect(new Set(numbers).size).toBe(20);
      const rows = await requestRows(engine);
      expect(rows.map((r) => r.request_no)).toEqual(
        Array.from({ length: 20 }, (_, i) => `WR${String(i + 1).padStart(7, '0')}`),
      );
      expect(rows.map((r) => Number(r.change_seq)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });

    if (kind === 'postgres') {
      /** Creates with the key 'raced' while another path holds an uncommitted row with it, and returns the outcome. */
      async function createWhileRaced(fields: Record<string, string>) {
        let answer: Promise<unknown> | undefined;
        await engine.db.transaction().execute(async (trx) => {
          await trx
            .insertInto('warranty_requests')
            .values({
              request_no: 'WR9000000',
              client_request_id: 'raced',
              customer_code: 'C001',
              sales_officer_id: 'SO01',
              product_code: 'P002',
              serial_no: 'SN-R',
              invoice_no: null,
              purchase_date: null,
              complaint: 'Written elsewhere',
              status: 'SUBMITTED',
              transporter: null,
              lr_no: null,
              lr_date: null,
              vehicle_no: null,
              created_at: '2026-06-14T08:00:00.000Z',
              updated_at: '2026-06-14T08:00:00.000Z',
              version: 1,
              change_seq: 9000000,
            })
            .execute();
          answer = create(engine, validRequest({ ClientRequestId: 'raced', ...fields })).catch((err: unknown) => err);
          await waitForLockWait(engine);
        });
        return answer!;
      }

      it('the same request committed with the key by another path while the create waits is returned (unique violation caught)', async () => {
        const result = (await createWhileRaced({
          ProductCode: 'P002',
          SerialNo: 'SN-R',
          Complaint: 'Written elsewhere',
        })) as Awaited<ReturnType<typeof create>>;
        expect(result.data).toMatchObject({
          RequestNo: 'WR9000000',
          Complaint: 'Written elsewhere',
          ProductCode: 'P002',
        });
        expect(result.message).toContain('was sent before');
        expect((await requestRows(engine)).map((r) => r.request_no)).toEqual(['WR9000000']);
        expect(await counter(engine, 'warranty_request_no')).toBe(0);
      });

      it('another request committed with the key by another path while the create waits makes it CONFLICT', async () => {
        expect(await createWhileRaced({})).toMatchObject({ code: 'CONFLICT', field: 'ClientRequestId' });
        expect((await requestRows(engine)).map((r) => r.request_no)).toEqual(['WR9000000']);
      });
    }
  });
});

/** Waits until some session of this database waits for a lock (the create blocked on the unique index). */
async function waitForLockWait(engine: Engine): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query like 'insert into "warranty_requests"%'`.execute(
      engine.db,
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the create never waited for the uncommitted row');
}
