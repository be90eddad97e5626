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
import { demoDataCalls } from '../../src/demo-data/operation-calls';

type Doc = {
  paths: Record<
    string,
    Record<
      'get' | 'post',
      {
        operationId: string;
        parameters?: Array<{ name: string }>;
        responses: Record<string, { content?: Record<string, { schema: object }> }>;
      }
    >
  >;
  components: { schemas: Record<string, object> };
};

/** A validator of one operation's 200 answer, with the document's components in reach of its $refs. */
function answerValidator(doc: Doc, path: string) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // The component schemas as the $defs of one schema, their references pointed there.
  const toDefs = (schema: object) =>
    JSON.parse(JSON.stringify(schema).split('"#/components/schemas/').join('"doc#/$defs/')) as object;
  ajv.addSchema({ $id: 'doc', $defs: toDefs(doc.components.schemas) });
  const validate = ajv.compile(toDefs(doc.paths[path].get.responses['200'].content!['application/json'].schema));
  return (body: unknown): string => (validate(body) ? '' : ajv.errorsText(validate.errors));
}

describe.each(ENGINES)('the OpenAPI document: %s', (kind) => {
  let t: TestApp;
  let doc: Doc;
  suiteApp(
    { kind, env: { BASE_PATH: '/MobileApp' }, clock: { now: () => new Date('2026-05-15T10:00:00Z') } },
    (started) => (t = started),
  );
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
    const { stdout } = await promisify(execFile)(process.execPath, [
      require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js'),
      file,
    ]);
    expect(JSON.parse(stdout)).toEqual({ valid: true });
    expect((doc as unknown as { openapi: string; servers: unknown }).openapi).toBe('3.1.0');
    expect((doc as unknown as { servers: unknown }).servers).toEqual([{ url: '/MobileApp' }]);
  });

  it("describes HTTP GET and POST of every operation of both services, with each one's inputs", () => {
    const expected = [...MAIN_OPERATION_NAMES.map((op) => `${MAIN_PATH}/${op}`), `${SYNC_PATH}/HelloWorld`];
    expect(Object.keys(doc.paths).sort()).toEqual(expected.sort());
    for (const item of Object.values(doc.paths)) {
      expect(Object.keys(item)).toEqual(['get', 'post']);
      expect(item.post.operationId).toBe(`${item.get.operationId}_post`);
    }
    expect(doc.paths[`${MAIN_PATH}/getPCNList`].get.parameters!.map((p) => p.name)).toEqual([
      'SalesOfficer',
      'Customer',
      'PaymentType',
      'PaymentMethod',
      'PageSize',
      'PageToken',
    ]);
    expect(doc.paths[`${SYNC_PATH}/HelloWorld`].get.responses['200'].content).toEqual({
      'text/xml': { schema: { type: 'string' } },
    });
    // SortBy names the fields the operation sorts by, and its default, from the declaration.
    const sortBy = doc.paths[`${MAIN_PATH}/getCollectionStatements`].get.parameters!.find(
      (p) => p.name === 'SortBy',
    ) as { schema?: object } | undefined;
    expect(sortBy?.schema).toEqual({
      type: 'string',
      enum: ['ReceiptNo', 'ReceiptDate', 'CustomerCode', 'CustomerName', 'PaymentMethod', 'Reference', 'Amount'],
      default: 'ReceiptDate',
    });
  });

  it('validates every answer of every operation over GET and POST', async () => {
    const table = await demoDataCalls(t.engine.db);
    expect(Object.keys(table).sort()).toEqual([...MAIN_OPERATION_NAMES].sort());
    const seen = { rows: 0, empty: 0, object: 0, nullData: 0, paged: 0, failure: 0 };
    for (const [operation, calls] of Object.entries(table)) {
      const path = `${MAIN_PATH}/${operation}`;
      const check = answerValidator(doc, path);
      for (const [i, fields] of calls.entries()) {
        const query = new URLSearchParams(fields).toString();
        // Every other call over POST, so both bindings' answers are held to the document.
        const res =
          i % 2 === 0
            ? await request(t.app).get(`/MobileApp${path}?${query}`)
            : await request(t.app).post(`/MobileApp${path}`).type('form').send(query);
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
    expect(check({ Success: true, Message: '', Count: 1, Data: [{ ...row, InvoiceDate: '01/05/2026' }] })).toMatch(
      /format "date"/,
    );
    expect(check({ Success: true, Message: '', Count: 1, Data: [{ ...row, Extra: 1 }] })).toMatch(
      /additional properties/,
    );
    expect(check({ Success: true, Message: '', Data: [row] })).toMatch(/Count/);
    expect(check({ Success: false, Code: 'NO_SUCH_CODE', Message: 'x', Field: null, Data: null })).toMatch(
      /enum|const/,
    );
  });
});
