/**
 * getPCNList's rows over HTTP, on both engines, with the answer cache on and off: byte for byte
 * JSON.stringify of the envelope of the rows the data gives, as the rows below spell them out from the
 * stored values: odd text, null cheque fields and money in minor units included. The v2 contract's
 * XML is made from the same read.
 */
import request from 'supertest';
import type { Database } from '../../src/db/schema';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { CUSTOMERS } from '../support/fixture';
import { MAIN_PATH } from '../support/interface-table';
import { CHEQUES, expectedChequeList } from '../support/cheques';

const ODD_NAME = 'Zoë "Quoted" \\ back/slash \u2028 𝄞 <&> \u0001\t';
const ODD_CUSTOMER = {
  code: 'C009',
  name: ODD_NAME,
  state_code: 'DL',
  sales_officer_id: 'SO01',
  credit_limit: 0,
  active: 1,
};
const NAMES = new Map<string, string>([...CUSTOMERS, ODD_CUSTOMER].map((c) => [c.code, c.name]));

/** The shared cheques and two of the odd customer's: odd text, null cheque fields, odd amounts. */
const ROWS: Database['pcn'][] = [
  ...CHEQUES,
  {
    pdc_id: 'PDC006',
    pcn_no: 'PCN006',
    pcn_date: '2026-03-05',
    customer_code: 'C009',
    sales_officer_id: 'SO01',
    payment_type: 'CURRENT',
    payment_method: 'NEFT',
    cheque_no: null,
    cheque_date: null,
    bank_name: null,
    amount: 1,
    status: 'CLEARED',
  },
  {
    pdc_id: 'PDC007',
    pcn_no: 'PCN007',
    pcn_date: '2026-03-05',
    customer_code: 'C009',
    sales_officer_id: 'SO01',
    payment_type: 'PDC',
    payment_method: 'DD',
    cheque_no: 'DD "9"',
    cheque_date: '2026-03-06',
    bank_name: 'Bank \u2029 of Zoë',
    amount: 123456789012,
    status: 'BOUNCED',
  },
];

/** The getPCNList rows of the cheques `keep` selects, spelled out from the stored values. */
const expectedRows = (keep: (c: Database['pcn']) => boolean) =>
  expectedChequeList(ROWS, (code) => NAMES.get(code)!, keep);

const envelope = (rows: unknown[]) => JSON.stringify({ Success: true, Message: '', Count: rows.length, Data: rows });

describe.each(
  ENGINES.flatMap((kind) => [
    { kind, cache: 'on' },
    { kind, cache: 'off' },
  ]),
)('getPCNList rows made where they are read: $kind, answer cache $cache', ({ kind, cache }) => {
  let t: TestApp;
  suiteApp(
    { kind, masterData: true, env: { ANSWER_CACHE_MB: cache === 'on' ? '64' : '0' } },
    (started) => (t = started),
  );
  beforeAll(async () => {
    await t.engine.db.insertInto('customers').values(ODD_CUSTOMER).execute();
    await t.engine.db.insertInto('pcn').values(ROWS).execute();
  });

  it.each([
    ['an officer, typed in lower case', 'SalesOfficer=so01', (c: Database['pcn']) => c.sales_officer_id === 'SO01'],
    ['a customer', 'Customer=C009', (c: Database['pcn']) => c.customer_code === 'C009'],
    ['a payment type', 'PaymentType=PDC', (c: Database['pcn']) => c.payment_type === 'PDC'],
    ['no filter', '', () => true],
    ['an unknown officer', 'SalesOfficer=NOBODY', () => false],
  ])(
    'GET and POST with %s answer JSON.stringify of the envelope, byte for byte, twice',
    async (_label, query, keep) => {
      const expected = envelope(expectedRows(keep));
      for (let i = 0; i < 2; i++) {
        // Uncompressed, so that the length sent is the text's own.
        const got = await request(t.app).get(`${MAIN_PATH}/getPCNList?${query}`).set('Accept-Encoding', 'identity');
        expect(got.status).toBe(200);
        expect(got.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
        expect(got.text).toBe(expected);
        const posted = await request(t.app).post(`${MAIN_PATH}/getPCNList`).type('form').send(query);
        expect(posted.text).toBe(expected);
      }
    },
  );

  it("answers the v2 contract's XML from the same rows", async () => {
    const got = await request(t.app)
      .get('/API/v2/MobileAppWebService.asmx/getPCNList?Customer=C009')
      .set('Accept-Encoding', 'identity');
    expect(got.status).toBe(200);
    // Short, so written whole (src/asmx/chunk-writer.ts).
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.text)));
    expect(got.text).toContain('<Count>2</Count>');
    expect(got.text).toContain('<CustomerName>Zoë &quot;Quoted&quot; \\ back/slash \u2028 𝄞 &lt;&amp;&gt; ');
    expect(got.text).toContain('<Amount>1234567890.12</Amount>');
    expect(got.text).toContain('<Amount>0.01</Amount>');
  });
});
