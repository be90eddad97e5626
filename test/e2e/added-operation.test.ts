/**
 * Adding an operation the way docs/architecture.md ("Adding an operation") says, the registry left as
 * it is: a read declared here (getCustomerNotes, on the activities table, which it names in `reads` as
 * a read outside the registry does), its entry added to a copy of the legacy WSDL, the v2 WSDL written
 * from both as npm run v2-wsdl writes it, and the real app given the declarations and the folder
 * (AppOptions.operations, wsdlRoot). It answers over the four bindings and the v2 contract, and its
 * answer is kept, then read anew after a write to its table.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { v2WsdlFiles } from '../../src/asmx/v2-wsdl-files';
import { code, MAX_CODE_LENGTH, required } from '../../src/operations/parse';
import { field, nullable, recordType, rows } from '../../src/operations/results';
import { readOperation, type Operation } from '../../src/operations/types';
import { mainServiceOperations } from '../../src/services/registry';
import { insertActivityData } from '../../src/activities/test-fixture';
import { startTestApp, type TestApp } from '../support/app';
import { ENGINES, freshEngine } from '../support/engines';
import { MAIN_PATH } from '../support/interface-table';
import { runOperation } from '../support/operation';
import { keptLookup } from '../support/answer-cache';
import { BINDINGS, exchange, send } from '../conformance/drivers';
import { emptyResponse } from '../soap/soap-support';

// ---- the declaration (step 2), as an area's operations.ts would hold it --------------------------

const getCustomerNotes = readOperation({
  name: 'getCustomerNotes',
  reads: ['activities'],
  params: ['SalesOfficer', 'CustomerCode'],
  fields: [],
  returns: rows(
    recordType('CustomerNote', {
      ActivityNo: field.string,
      ActivityDate: field.date,
      Note: field.string,
      Remarks: nullable(field.string),
    }),
  ),
  prepare: ({ fields }) => ({
    customerCode: required(fields, 'CustomerCode', MAX_CODE_LENGTH),
    salesOfficer: code(fields, 'SalesOfficer') ?? null,
  }),
  async read({ customerCode, salesOfficer }, ctx) {
    let query = ctx.db
      .selectFrom('activities')
      .select([
        'activity_no as ActivityNo',
        'activity_date as ActivityDate',
        'description as Note',
        'remarks as Remarks',
      ])
      .where('customer_code', '=', customerCode);
    if (salesOfficer !== null) query = query.where('sales_officer_id', '=', salesOfficer);
    return { data: await query.orderBy('activity_date').orderBy('activity_no').execute() };
  },
});

const OPERATIONS: readonly Operation[] = [...mainServiceOperations, getCustomerNotes];

// ---- the legacy WSDL entry (step 1) and the v2 WSDL (step 4), in a copy of wsdl/ -----------------

/**
 * Step 1 as the guide says it: every block of a similar operation (FillAreaManagers, whose one
 * parameter is username) copied after itself and renamed, with this operation's parameters.
 */
function withEntry(legacy: string): string {
  const block =
    /^( *)<(s:element|wsdl:message|wsdl:operation) name="FillAreaManagers\w*"(?: \/>|>[\s\S]*?\n\1<\/\2>)$/gm;
  const renamed = (xml: string) =>
    xml
      .replaceAll('FillAreaManagers', 'getCustomerNotes')
      .replace(
        /^(.*)"username"(.*)$/m,
        (_line, before: string, after: string) => `${before}"SalesOfficer"${after}\n${before}"CustomerCode"${after}`,
      );
  return legacy.replace(block, (xml) => `${xml}\n${renamed(xml)}`);
}

/** A folder holding a copy of the project's wsdl/ with the entry added, and the v2 files written from it. */
function contractFolder(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mobileapp-contract-'));
  fs.cpSync(path.join(__dirname, '..', '..', 'wsdl'), path.join(root, 'wsdl'), { recursive: true });
  const legacy = path.join(root, 'wsdl', 'MobileAppWebService.wsdl');
  fs.writeFileSync(legacy, withEntry(fs.readFileSync(legacy, 'utf8')));
  for (const { file, text } of v2WsdlFiles(root, OPERATIONS)) fs.writeFileSync(path.join(root, file), text);
  return root;
}

// ---- its test (step 3) and the app serving it -----------------------------------------------------

const NS = 'http://tempuri.org/';
const CALL = { SalesOfficer: 'SO01', CustomerCode: 'C001' };
const NOTES_URL = `${MAIN_PATH}/getCustomerNotes?${new URLSearchParams(CALL).toString()}`;
/** SO01's activities with C001 (src/activities/test-fixture.ts), by date. */
const NOTES = [
  { ActivityNo: 'ACT001', ActivityDate: '2026-06-01', Note: 'Routine visit', Remarks: null },
  { ActivityNo: 'ACT006', ActivityDate: '2026-06-03', Note: 'Cheque pick-up', Remarks: null },
];

let root: string;
beforeAll(() => (root = contractFolder()));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it('the legacy WSDL entry lists the operation as FillAreaManagers is listed, with its two parameters', () => {
  const legacy = fs.readFileSync(path.join(root, 'wsdl', 'MobileAppWebService.wsdl'), 'utf8');
  const count = (name: string) => legacy.split(`"${name}`).length - 1;
  expect(count('getCustomerNotes')).toBe(count('FillAreaManagers'));
  expect(legacy).toContain('<wsdl:part name="CustomerCode" type="s:string" />');
});

describe.each(ENGINES)('an operation added outside the registry: %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ kind, contract: { operations: OPERATIONS, wsdlRoot: root } });
    await insertActivityData(t.engine.db);
  });
  afterAll(() => t.close());

  it('answers its declared result when called directly (runOperation)', async () => {
    const engine = await freshEngine(kind);
    try {
      await insertActivityData(engine.db);
      expect((await runOperation(getCustomerNotes, engine, CALL)).data).toEqual(NOTES);
    } finally {
      await engine.close();
    }
  });

  it.each(BINDINGS)('answers over %s, and refuses a call without CustomerCode there', async (binding) => {
    const res = await exchange(t.app, binding, MAIN_PATH, 'getCustomerNotes', CALL);
    expect(res.status).toBe(200);
    if (binding === 'soap11' || binding === 'soap12')
      expect(res.text).toBe(emptyResponse(binding === 'soap11' ? '1.1' : '1.2', 'getCustomerNotes', NS));
    else expect(JSON.parse(res.text)).toMatchObject({ Success: true, Data: NOTES });
    // Legacy SOAP runs prepare only: the check is there, so every binding refuses.
    expect(await send(t.app, binding, 'getCustomerNotes', { SalesOfficer: 'SO01' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('CustomerCode'),
    });
  });

  it('is in the served WSDL of both contracts, and answers typed rows over v2', async () => {
    expect((await request(t.app).get(`${MAIN_PATH}?wsdl`)).text).toContain('<wsdl:operation name="getCustomerNotes">');
    const v2 = (await request(t.app).get('/API/v2/MobileAppWebService.asmx?wsdl')).text;
    expect(v2).toContain('<s:complexType name="CustomerNote">');
    expect(v2).toContain('<http:operation location="/getCustomerNotes" />');
    const typed = await request(t.app).get(
      `/API/v2/MobileAppWebService.asmx/getCustomerNotes?${new URLSearchParams(CALL).toString()}`,
    );
    expect(typed.status).toBe(200);
    expect(typed.text).toContain(
      '<ActivityNo>ACT006</ActivityNo><ActivityDate>2026-06-03</ActivityDate><Note>Cheque pick-up</Note>',
    );
  });

  it('keeps its answer, and reads it anew after a write to the table it reads', async () => {
    const first = await keptLookup(t, NOTES_URL);
    expect(await keptLookup(t, NOTES_URL)).toEqual({ body: first.body, hit: true });
    // ActivityApprovalRejection writes the activities table: the kept answer is stale.
    const rejected = await request(t.app)
      .get(`${MAIN_PATH}/ActivityApprovalRejection`)
      .query({ ActivityNo: 'ACT001', Action: 'REJECT', ApprovedBy: 'AM01', Remarks: 'Call back in July' });
    expect(rejected.body).toMatchObject({ Success: true });
    const renewed = await keptLookup(t, NOTES_URL);
    expect(renewed.hit).toBe(false);
    expect(JSON.parse(renewed.body)).toMatchObject({
      Data: [{ ActivityNo: 'ACT001', Remarks: 'Call back in July' }, NOTES[1]],
    });
    expect(await keptLookup(t, NOTES_URL)).toEqual({ body: renewed.body, hit: true });
  });
});
