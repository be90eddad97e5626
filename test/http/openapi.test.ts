/**
 * The OpenAPI document of the JSON bindings (src/asmx/http/openapi.ts, docs/integrators.md): the served
 * document is a valid OpenAPI 3.1 document, it describes HTTP GET and POST of every operation of both
 * services, and every real answer of every operation, on demo data and on both engines, validates
 * against its response schema: lists with rows, empty lists, paged answers, objects, null, the writes
 * with and without input, and business failures.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { seed } from '../../src/demo-data';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { MAIN_OPERATION_NAMES, MAIN_PATH, SYNC_PATH } from '../support/interface-table';

type Doc = {
  paths: Record<string, Record<'get' | 'post', { operationId: string; parameters?: Array<{ name: string }>; responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
};

/** A validator of one operation's 200 answer, with the document's components in reach of its $refs. */
function answerValidator(doc: Doc, path: string) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // The component schemas as the $defs of one schema, their references pointed there.
  const toDefs = (schema: object) => JSON.parse(JSON.stringify(schema).split('"#/components/schemas/').join('"doc#/$defs/')) as object;
  ajv.addSchema({ $id: 'doc', $defs: toDefs(doc.components.schemas) });
  const validate = ajv.compile(toDefs(doc.paths[path].get.responses['200'].content!['application/json'].schema));
  return (body: unknown): string => (validate(body) ? '' : ajv.errorsText(validate.errors));
}

describe.each(ENGINES)('the OpenAPI document: %s', (kind) => {
  let t: TestApp;
  let doc: Doc;
  suiteApp({ kind, env: { BASE_PATH: '/MobileApp' }, clock: { now: () => new Date('2026-05-15T10:00:00Z') } }, (started) => (t = started));
  beforeAll(async () => {
    await seed(t.engine, { scale: 0.03, asOf: '2026-05-15' });
    const res = await request(t.app).get('/MobileApp/API/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    doc = JSON.parse(res.text) as Doc;
  }, 120_000);

  it('is a valid OpenAPI 3.1 document, served behind the base path', async () => {
    // The validator (the OpenAPI 3.1 schema, then every $ref resolved) is an ES module: it runs in its own node.
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js'), file]);
    expect(JSON.parse(stdout)).toEqual({ valid: true });
    expect((doc as unknown as { openapi: string; servers: unknown }).openapi).toBe('3.1.0');
    expect((doc as unknown as { servers: unknown }).servers).toEqual([{ url: '/MobileApp' }]);
  });

  it('describes HTTP GET and POST of every operation of both services, with each one\'s inputs', () => {
    const expected = [...MAIN_OPERATION_NAMES.map((op) => `${MAIN_PATH}/${op}`), `${SYNC_PATH}/HelloWorld`];
    expect(Object.keys(doc.paths).sort()).toEqual(expected.sort());
    for (const item of Object.values(doc.paths)) {
      expect(Object.keys(item)).toEqual(['get', 'post']);
      expect(item.post.operationId).toBe(`${item.get.operationId}_post`);
    }
    expect(doc.paths[`${MAIN_PATH}/getPCNList`].get.parameters!.map((p) => p.name)).toEqual(['SalesOfficer', 'Customer', 'PaymentType', 'PaymentMethod', 'PageSize', 'PageToken']);
    expect(doc.paths[`${SYNC_PATH}/HelloWorld`].get.responses['200'].content).toEqual({ 'text/xml': { schema: { type: 'string' } } });
  });

  /** Inputs per operation that reach rows, objects, nulls, pages and failures on the demo data. */
  async function inputs(): Promise<Record<string, Array<Record<string, string>>>> {
    const db = t.engine.db;
    const cheque = await db.selectFrom('pcn').select(['pdc_id', 'pcn_no']).orderBy('pdc_id').executeTakeFirstOrThrow();
    const withDebitNote = await db.selectFrom('pcn_debit_notes').select('pcn_no').orderBy('pcn_no').executeTakeFirstOrThrow();
    const officer = await db.selectFrom('users').select('id').where('role', '=', 'SO').orderBy('id').executeTakeFirstOrThrow();
    const manager = await db.selectFrom('users').select('id').where('role', '=', 'ZM').orderBy('id').executeTakeFirstOrThrow();
    const customer = await db.selectFrom('customers').select(['code', 'sales_officer_id']).where('sales_officer_id', '=', officer.id).orderBy('code').executeTakeFirstOrThrow();
    const request = await db.selectFrom('warranty_requests').select('request_no').orderBy('request_no').executeTakeFirstOrThrow();
    const pending = await db.selectFrom('activities').select('activity_no').where('status', '=', 'PENDING').orderBy('activity_no').executeTakeFirstOrThrow();
    const enquiry = await db.selectFrom('enquiries').select(['enquiry_no', 'customer_code']).orderBy('enquiry_no').executeTakeFirstOrThrow();
    const product = await db.selectFrom('products').select('code').orderBy('code').executeTakeFirstOrThrow();
    type Fields = Record<string, string>;
    const bad: Fields = { FromDate: '31/02/2026' };
    const reports: Fields[] = [{}, { FromDate: '2026-04-01', ToDate: '2026-04-30' }, { SalesOfficer: officer.id }, { FromCustomer: 'ZZZZ' }, bad];
    return {
      getSalesSummaryRecords: reports,
      getOrderVDeliverySummaryRecords: [...reports, { SortBy: 'DeliveryPercent', SortDirection: 'DESC' }],
      getOrderVsDeliveryOfficer: [{}, { ManagerId: manager.id }, { SalesOfficer: 'NOBODY' }, bad],
      getSalesReportStats: [{}, { Username: officer.id }, { Username: 'nobody' }],
      getCollectionStatements: [{}, { FromCustomer: customer.code }, { PageSize: '3' }, { FromCustomer: 'ZZZZ' }, bad],
      getOpeningBalance: [{}, { CustomerIds: customer.code }, { CustomerIds: 'NONE' }, { Month: '13' }],
      getPCNList: [{}, { SalesOfficer: officer.id }, { PageSize: '2' }, { Customer: 'NONE' }, { PaymentType: 'X' }],
      getPCNDetails: [{ PDCID: cheque.pdc_id }, { PDCID: 'NONE' }, {}],
      getPCNDebitNotes: [{ PCNNO: withDebitNote.pcn_no }, {}],
      getPCNInvoices: [{ PCNNO: cheque.pcn_no }, {}],
      FillAreaManagers: [{}, { username: manager.id }, { username: 'nobody' }],
      FillProfitCenterForCustomer: [{}, { CustomerCode: customer.code }],
      ActivityReportAndComplaints: [{}, { SalesOfficer: officer.id }, { SalesOfficer: officer.id, PageSize: '2' }, bad],
      SyncWarrantyReqList: [{}, { SalesOfficer: officer.id, PageSize: '3' }],
      CreateWarrantyRequest: [{}, { CustomerCode: customer.code, SalesOfficer: customer.sales_officer_id, ProductCode: product.code, SerialNo: 'SN-OPENAPI-1', Complaint: 'Hums' }, { CustomerCode: customer.code }],
      UpdateWarrantyTransportDetails: [{}, { RequestNo: 'NONE', Transporter: 'X', LRNo: '1', LRDate: '2026-05-01' }],
      WarrantyRequestFiles: [{}, { RequestNo: request.request_no }],
      ActivityApprovalRejection: [{}, { ActivityNo: pending.activity_no, Action: 'APPROVE', ApprovedBy: 'ADM001' }, { ActivityNo: pending.activity_no, Action: 'MAYBE' }],
      UpdateActivityNoAndOrderToCustInEnquiryMst: [{}, { EnquiryNo: enquiry.enquiry_no, OrderToCustomer: enquiry.customer_code }],
    };
  }

  it('validates every answer of every operation over GET and POST', async () => {
    const table = await inputs();
    expect(Object.keys(table).sort()).toEqual([...MAIN_OPERATION_NAMES].sort());
    const seen = { rows: 0, empty: 0, object: 0, nullData: 0, paged: 0, failure: 0 };
    for (const [operation, calls] of Object.entries(table)) {
      const path = `${MAIN_PATH}/${operation}`;
      const check = answerValidator(doc, path);
      for (const [i, fields] of calls.entries()) {
        const query = new URLSearchParams(fields).toString();
        // Every other call over POST, so both bindings' answers are held to the document.
        const res = i % 2 === 0 ? await request(t.app).get(`/MobileApp${path}?${query}`) : await request(t.app).post(`/MobileApp${path}`).type('form').send(query);
        expect(res.status).toBe(200);
        const body = JSON.parse(res.text) as { Success: boolean; Data: unknown; NextPageToken?: unknown };
        expect({ operation, fields, problems: check(body) }).toEqual({ operation, fields, problems: '' });
        if (!body.Success) seen.failure++;
        else if (Array.isArray(body.Data)) seen[body.Data.length > 0 ? 'rows' : 'empty']++;
        else seen[body.Data === null ? 'nullData' : 'object']++;
        if (body.NextPageToken !== undefined) seen.paged++;
      }
    }
    // The table reaches every shape of answer more than once.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(2);
  }, 120_000);

  it('holds a wrong answer to account: the validators are not empty', () => {
    const check = answerValidator(doc, `${MAIN_PATH}/getPCNInvoices`);
    const row = { InvoiceNo: 'INV1', InvoiceDate: '2026-05-01', InvoiceAmount: 10.5, AdjustedAmount: 10.5 };
    expect(check({ Success: true, Message: '', Count: 1, Data: [row] })).toBe('');
    expect(check({ Success: true, Message: '', Count: 1, Data: [{ ...row, InvoiceDate: '01/05/2026' }] })).toMatch(/format "date"/);
    expect(check({ Success: true, Message: '', Count: 1, Data: [{ ...row, Extra: 1 }] })).toMatch(/additional properties/);
    expect(check({ Success: true, Message: '', Data: [row] })).toMatch(/Count/);
    expect(check({ Success: false, Code: 'NO_SUCH_CODE', Message: 'x', Field: null, Data: null })).toMatch(/enum|const/);
  });
});
