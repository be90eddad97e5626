/**
 * Writes through every binding (docs/behaviour.md, "Conventions of every operation"): the same named
 * fields create the same row whichever binding carries them, an invalid field is refused with the same
 * message and writes nothing, and a write without any input does nothing. Each case is read back from
 * the database, not from the answer alone. How HTTP POST carries fields in JSON and multipart bodies,
 * and files, is in test/e2e/writes-through-bindings.test.ts.
 */
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { storedWarrantyRequests, warrantyFields } from '../support/fixture';
import { BINDINGS, carried, send } from './drivers';

describe.each(ENGINES)('writes: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind, masterData: true }, (started) => (t = started));

  const stored = (clientRequestId: string) => storedWarrantyRequests(t.engine.db, clientRequestId);

  describe.each(BINDINGS)('%s', (binding) => {
    it('the named fields create the request, stored with the codes as the master data spells them', async () => {
      const id = `create-${binding}`;
      expect(await send(t.app, binding, 'CreateWarrantyRequest', warrantyFields(id))).toEqual({ ok: true });
      const rows = await stored(id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        customer_code: 'C001',
        sales_officer_id: 'SO01',
        product_code: 'P002',
        serial_no: `SN-${id}`,
        purchase_date: '2026-01-15',
        status: 'SUBMITTED',
      });
    });

    it('an invalid field is refused with its message, and nothing is written', async () => {
      const id = `invalid-${binding}`;
      const outcome = await send(t.app, binding, 'CreateWarrantyRequest', {
        ...warrantyFields(id),
        PurchaseDate: '31/02/2026',
      });
      expect(outcome).toEqual(
        carried(binding, {
          ok: false,
          code: 'INVALID_PARAMETER',
          field: 'PurchaseDate',
          message:
            "PurchaseDate: '31/02/2026' is not a date (use yyyy-MM-dd, dd/MM/yyyy, dd-MM-yyyy, dd.MM.yyyy, dd-MMM-yyyy or dd MMM yyyy)",
        }),
      );
      expect(await stored(id)).toHaveLength(0);
    });

    it('a required field left out is refused, naming the first one missing', async () => {
      const { Complaint: _left, ...fields } = warrantyFields(`missing-${binding}`);
      expect(await send(t.app, binding, 'CreateWarrantyRequest', fields)).toEqual(
        carried(binding, {
          ok: false,
          code: 'MISSING_PARAMETER',
          field: 'Complaint',
          message: 'Complaint is required',
        }),
      );
      expect(await stored(`missing-${binding}`)).toHaveLength(0);
    });

    it("a ClientRequestId is the officer's own: the same request replays, another is CONFLICT, another officer's is created", async () => {
      const id = `key-${binding}`;
      const fields = warrantyFields(id);
      expect(await send(t.app, binding, 'CreateWarrantyRequest', fields)).toEqual({ ok: true });
      const [first] = await stored(id);
      expect(
        await send(t.app, binding, 'CreateWarrantyRequest', {
          ...fields,
          CustomerCode: 'C001',
          PurchaseDate: '2026-01-15',
        }),
      ).toEqual({ ok: true });
      expect(await send(t.app, binding, 'CreateWarrantyRequest', { ...fields, Complaint: 'Another fault' })).toEqual(
        carried(binding, {
          ok: false,
          code: 'CONFLICT',
          field: 'ClientRequestId',
          message: `ClientRequestId: '${id}' was sent before with another request (${first.request_no}); use a new key for a new request`,
        }),
      );
      expect(
        await send(t.app, binding, 'CreateWarrantyRequest', {
          ...fields,
          CustomerCode: 'C003',
          SalesOfficer: 'so.two',
        }),
      ).toEqual({ ok: true });
      const rows = await stored(id);
      expect(
        rows.map((r) => [r.request_no === first.request_no, r.sales_officer_id, r.customer_code, r.complaint]),
      ).toEqual([
        [true, 'SO01', 'C001', fields.Complaint],
        [false, 'SO02', 'C003', fields.Complaint],
      ]);
    });

    it('a write without any input does nothing and succeeds', async () => {
      const before = await t.engine.db
        .selectFrom('warranty_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(
        await send(t.app, binding, 'CreateWarrantyRequest', [
          ['CustomerCode', ''],
          ['Complaint', ' '],
        ]),
      ).toEqual({ ok: true });
      const after = await t.engine.db
        .selectFrom('warranty_requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  });
});
