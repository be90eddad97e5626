/**
 * With authentication on, a reference the caller sends is looked up within their scope (docs/behaviour.md,
 * "Records outside the caller's scope"): a record of another officer is answered exactly as one that
 * does not exist, NOT_FOUND echoing only what was sent, in every binding, so a refusal tells neither
 * that the record exists nor whose it is. The writes are sent over SOAP and HTTP POST (with
 * authentication on, writes are not for HTTP GET), the read over all four bindings.
 */
import type { TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { giveKey, suiteAuthApp } from '../auth/auth-support';
import { BINDINGS, send, type BindingName, type Outcome } from './drivers';
import { pending } from '../../src/activities/test-fixture';

const HEADER = 'X-Mobile-Key';
const WRITE_BINDINGS: readonly BindingName[] = ['soap11', 'soap12', 'httppost'];

/** The outcome with the value the caller sent replaced, so a hidden and an absent reference compare equal. */
function shape(outcome: Outcome, sent: string): Outcome {
  expect(outcome.ok).toBe(false);
  return { ...outcome, message: outcome.message?.split(sent).join('<sent>') };
}

describe.each(ENGINES)("references outside the caller's scope: %s", (kind) => {
  let t: TestApp;
  const keys: Record<string, string> = {};

  suiteAuthApp(
    kind,
    { AUTH_MODE: 'apikey', AUTH_API_KEY_HEADER: HEADER },
    (started) => (t = started),
    async () => {
      for (const username of ['so.one', 'am.south']) keys[username] = (await giveKey(t, username)).key;
      const db = t.engine.db;
      // SO02's invoice, activity and warranty request; SO01's enquiry and pending activity.
      await db
        .insertInto('invoices')
        .values({
          invoice_no: 'INV0005690',
          invoice_date: '2026-05-03',
          customer_code: 'C003',
          sales_officer_id: 'SO02',
          profit_center_code: 'PC1',
          order_no: null,
          amount: 99900,
        })
        .execute();
      await db
        .insertInto('activities')
        .values([
          pending('ACT0000777', '2026-06-03', 'VISIT', 'C003', 'SO02', 'Visit of another officer'),
          pending('ACT0000778', '2026-06-04', 'VISIT', 'C001', 'SO01', 'Visit awaiting a decision'),
        ])
        .execute();
      await db
        .insertInto('enquiries')
        .values({
          enquiry_no: 'ENQ0000100',
          enquiry_date: '2026-06-10',
          customer_code: 'C001',
          sales_officer_id: 'SO01',
          description: 'Wants a quote',
          activity_no: null,
          order_to_customer: null,
          updated_at: '2026-06-10T08:00:00.000Z',
        })
        .execute();
      await db
        .insertInto('warranty_requests')
        .values({
          request_no: 'WR0000777',
          client_request_id: null,
          customer_code: 'C003',
          sales_officer_id: 'SO02',
          product_code: 'P001',
          serial_no: 'SN-7',
          invoice_no: null,
          purchase_date: null,
          complaint: 'Noise',
          status: 'SUBMITTED',
          transporter: null,
          lr_no: null,
          lr_date: null,
          vehicle_no: null,
          created_at: '2026-06-10T08:00:00.000Z',
          updated_at: '2026-06-10T08:00:00.000Z',
          version: 1,
          change_seq: 777,
        })
        .execute();
    },
  );

  /** Sends the operation as `username` with `reference` in `field`, and with an absent one: the answers must match. */
  async function expectAsAbsent(
    binding: BindingName,
    username: string,
    operation: string,
    fields: Record<string, string>,
    field: string,
    hidden: string,
    absent: string,
  ) {
    const as = { [HEADER]: keys[username] };
    const outside = await send(t.app, binding, operation, { ...fields, [field]: hidden }, as);
    const unknown = await send(t.app, binding, operation, { ...fields, [field]: absent }, as);
    expect(shape(outside, hidden)).toEqual(shape(unknown, absent));
    if (binding === 'httpget' || binding === 'httppost') expect(outside).toMatchObject({ code: 'NOT_FOUND', field });
    expect(await othersUnchanged()).toBe(true);
    return outside;
  }

  /** Whether another officer's records are as the fixture stored them. */
  async function othersUnchanged(): Promise<boolean> {
    const db = t.engine.db;
    const request = await db
      .selectFrom('warranty_requests')
      .select(['status', 'transporter'])
      .where('request_no', '=', 'WR0000777')
      .executeTakeFirstOrThrow();
    const activity = await db
      .selectFrom('activities')
      .select('status')
      .where('activity_no', '=', 'ACT0000778')
      .executeTakeFirstOrThrow();
    const enquiry = await db
      .selectFrom('enquiries')
      .select('activity_no')
      .where('enquiry_no', '=', 'ENQ0000100')
      .executeTakeFirstOrThrow();
    const created = await db
      .selectFrom('warranty_requests')
      .select('request_no')
      .where('request_no', '!=', 'WR0000777')
      .execute();
    return (
      request.status === 'SUBMITTED' &&
      request.transporter === null &&
      activity.status === 'PENDING' &&
      enquiry.activity_no === null &&
      created.length === 0
    );
  }

  describe.each(WRITE_BINDINGS)('%s', (binding) => {
    it("CreateWarrantyRequest with another officer's InvoiceNo does not name the invoice's customer", async () => {
      const fields = {
        CustomerCode: 'C001',
        SalesOfficer: 'SO01',
        ProductCode: 'P001',
        SerialNo: 'SN-1',
        Complaint: 'Stops',
      };
      const outside = await expectAsAbsent(
        binding,
        'so.one',
        'CreateWarrantyRequest',
        fields,
        'InvoiceNo',
        'INV0005690',
        'INV0009999',
      );
      expect(outside.message).not.toContain('C003');
    });

    it("UpdateActivityNoAndOrderToCustInEnquiryMst with another officer's activity does not name its customer", async () => {
      const outside = await expectAsAbsent(
        binding,
        'so.one',
        'UpdateActivityNoAndOrderToCustInEnquiryMst',
        { EnquiryNo: 'ENQ0000100' },
        'ActivityNo',
        'ACT0000777',
        'ACT0009999',
      );
      expect(outside.message).not.toContain('C003');
    });

    it('ActivityApprovalRejection on an activity of another tree does not name its officer', async () => {
      const outside = await expectAsAbsent(
        binding,
        'am.south',
        'ActivityApprovalRejection',
        { Action: 'APPROVE' },
        'ActivityNo',
        'ACT0000778',
        'ACT0009999',
      );
      expect(outside.message).not.toContain('SO01');
    });

    it("UpdateWarrantyTransportDetails on another officer's request does not name its officer", async () => {
      const outside = await expectAsAbsent(
        binding,
        'so.one',
        'UpdateWarrantyTransportDetails',
        { Transporter: 'EvilCo', LRNo: 'LR-1' },
        'RequestNo',
        'WR0000777',
        'WR0009999',
      );
      expect(outside.message).not.toContain('SO02');
    });
  });

  it.each(BINDINGS)(
    'getSalesReportStats with the Username of someone outside the scope does not map it to an officer (%s)',
    async (binding) => {
      const outside = await expectAsAbsent(
        binding,
        'so.one',
        'getSalesReportStats',
        {},
        'Username',
        'so.two',
        'so.nobody',
      );
      expect(outside.message).not.toContain('SO02');
    },
  );
});
