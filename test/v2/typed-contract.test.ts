/**
 * The typed v2 contract (docs/v2.md) through the real app on demo data, on both engines: every call of
 * every operation (src/demo-data/operation-calls.ts) over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST
 * of /API/v2/MobileAppWebService.asmx answers the same data as the legacy HTTP GET JSON of the same
 * call, field by field, typed as the v2 WSDL declares (a customer's name holds non-ASCII characters,
 * markup characters and an astral-plane character); a business failure is a Client/Sender fault whose
 * detail carries Code, Field and Message (SOAP), or status 500 with the ServiceError document (HTTP);
 * the documents of v2 are served as for the legacy paths; V2_CONTRACT=false turns the paths off.
 */
import request from 'supertest';
import { seed } from '../../src/demo-data';
import { ENVELOPE_NS, type SoapVersion } from '../../src/asmx/faults';
import { mainServiceOperations } from '../../src/services/registry';
import { escapeXmlText } from '../../src/asmx/xml-escape';
import { v2ResultTypeName } from '../../src/asmx/typed-xml';
import { startTestApp, suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { MAIN_OPERATION_NAMES } from '../support/interface-table';
import { demoDataCalls, type Fields } from '../../src/demo-data/operation-calls';
import { nameCustomerNonAscii, NON_ASCII_NAME } from '../support/operation-inputs';
import { findElement, jsonMembers, readXml, typedAsJson, xmlToValue, type XmlNode } from '../support/typed-values';

const V2_PATH = '/API/v2/MobileAppWebService.asmx';
const V2_NS = 'http://tempuri.org/v2/';
const OPERATIONS = new Map(mainServiceOperations.map((op) => [op.name, op]));

type Binding = 'soap11' | 'soap12' | 'httpget' | 'httppost';
const BINDINGS: Binding[] = ['soap11', 'soap12', 'httpget', 'httppost'];

function soapEnvelope(version: SoapVersion, operation: string, fields: Fields): string {
  const args = Object.entries(fields)
    .map(([name, value]) => `<${name}>${escapeXmlText(value)}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}"><soap:Body><${operation} xmlns="${V2_NS}">${args}</${operation}></soap:Body></soap:Envelope>`;
}

async function sendV2(t: TestApp, binding: Binding, operation: string, fields: Fields): Promise<request.Response> {
  const query = new URLSearchParams(fields).toString();
  if (binding === 'httpget') return request(t.app).get(`${V2_PATH}/${operation}?${query}`);
  if (binding === 'httppost') return request(t.app).post(`${V2_PATH}/${operation}`).type('form').send(query);
  const version: SoapVersion = binding === 'soap11' ? '1.1' : '1.2';
  const contentType = version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
  const call = request(t.app).post(V2_PATH).set('Content-Type', contentType);
  if (version === '1.1') call.set('SOAPAction', `"${V2_NS}${operation}"`);
  return call.send(soapEnvelope(version, operation, fields));
}

/** The typed result element of an answer: <opResult> inside the SOAP body, or the HTTP document's root. */
function resultElement(binding: Binding, operation: string, document: XmlNode): XmlNode {
  const name = binding.startsWith('soap') ? `${operation}Result` : v2ResultTypeName(operation);
  const element = findElement(document, name);
  if (!element) throw new Error(`no ${name} in the answer`);
  expect(element.uri).toBe(V2_NS);
  return element;
}

describe.each(ENGINES)('the v2 contract: %s', (kind) => {
  let t: TestApp;
  let calls: Record<string, Fields[]>;
  suiteApp({ kind, clock: { now: () => new Date('2026-05-15T10:00:00Z') } }, (started) => (t = started));
  beforeAll(async () => {
    await seed(t.engine, { scale: 0.03, asOf: '2026-05-15' });
    await nameCustomerNonAscii(t.engine.db);
    calls = await demoDataCalls(t.engine.db);
  }, 120_000);

  it('answers every call of every operation on the four bindings with the legacy JSON data, typed', async () => {
    expect(Object.keys(calls).sort()).toEqual([...MAIN_OPERATION_NAMES].sort());
    let failures = 0;
    let nonAscii = 0;
    for (const [operation, list] of Object.entries(calls)) {
      const op = OPERATIONS.get(operation)!;
      for (const fields of list) {
        const legacy = JSON.parse(
          (
            await request(t.app).get(
              `/API/MobileAppWebService.asmx/${operation}?${new URLSearchParams(fields).toString()}`,
            )
          ).text,
        ) as Record<string, unknown>;
        for (const binding of BINDINGS) {
          const res = await sendV2(t, binding, operation, fields);
          const label = { operation, fields, binding };
          if (legacy.Success === false) {
            expect({ ...label, status: res.status }).toEqual({ ...label, status: 500 });
            const error = findElement(readXml(res.text), 'ServiceError')!;
            expect({ ...label, error: xmlToValue(error) }).toEqual({
              ...label,
              error: { Code: legacy.Code, Field: legacy.Field, Message: legacy.Message },
            });
            if (binding.startsWith('soap'))
              expect(res.text).toContain(
                binding === 'soap11' ? '<faultcode>soap:Client</faultcode>' : '<soap:Value>soap:Sender</soap:Value>',
              );
            failures++;
            continue;
          }
          expect({ ...label, status: res.status }).toEqual({ ...label, status: 200 });
          expect(res.headers['content-type']).toBe(
            binding === 'soap12' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8',
          );
          const typed = typedAsJson(
            xmlToValue(resultElement(binding, operation, readXml(res.text))),
            op.returns,
            'PageSize' in fields || 'PageToken' in fields,
          );
          const expected = jsonMembers(legacy);
          // A write repeated answers the same Data with its own message ("already ...").
          if (op.kind === 'write' && expected.Data !== null) typed.Message = expected.Message;
          expect({ ...label, typed }).toEqual({ ...label, typed: expected });
          if (res.text.includes(escapeXmlText(NON_ASCII_NAME))) nonAscii++;
        }
      }
    }
    expect(failures).toBeGreaterThan(20);
    expect(nonAscii).toBeGreaterThan(8);
  }, 120_000);

  it('writes money, dates, timestamps, nulls and empty lists in their XML Schema forms', async () => {
    const activity = await sendV2(t, 'httpget', 'ActivityReportAndComplaints', calls.ActivityReportAndComplaints[1]);
    expect(activity.text).toMatch(/<ActivityDate>\d{4}-\d{2}-\d{2}<\/ActivityDate>/);
    expect(activity.text).toContain('<DecidedBy xsi:nil="true"></DecidedBy>');
    const empty = await sendV2(t, 'soap12', 'getPCNList', { Customer: 'NONE' });
    expect(empty.text).toContain('<getPCNListResult><Message></Message><Count>0</Count><Data/></getPCNListResult>');
    const stats = await sendV2(t, 'soap11', 'getSalesReportStats', {});
    expect(stats.text).toMatch(/<SalesMTD>\d+(\.\d{1,2})?<\/SalesMTD>/);
    const created = await sendV2(t, 'httppost', 'CreateWarrantyRequest', calls.CreateWarrantyRequest[1]);
    expect(created.text).toMatch(/<CreatedAt>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z<\/CreatedAt>/);
    const none = await sendV2(t, 'httpget', 'getPCNDetails', { PDCID: 'NONE' });
    expect(none.text).toBe(
      `<?xml version="1.0" encoding="utf-8"?><GetPCNDetailsResult xmlns="${V2_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><Message></Message></GetPCNDetailsResult>`,
    );
  });

  it('answers protocol errors as the legacy paths do, in its own namespace', async () => {
    const soapUnknown = (path: string, ns: string) =>
      request(t.app)
        .post(path)
        .set('Content-Type', 'text/xml; charset=utf-8')
        .set('SOAPAction', `"${ns}NoSuchOp"`)
        .send(soapEnvelope('1.1', 'NoSuchOp', {}).split(V2_NS).join(ns));
    const legacy = await soapUnknown('/API/MobileAppWebService.asmx', 'http://tempuri.org/');
    const typed = await soapUnknown(V2_PATH, V2_NS);
    expect(typed.status).toBe(legacy.status);
    expect(typed.text).toBe(legacy.text.split('http://tempuri.org/NoSuchOp').join(`${V2_NS}NoSuchOp`));
    const httpLegacy = await request(t.app).get('/API/MobileAppWebService.asmx/NoSuchOp');
    const httpTyped = await request(t.app).get(`${V2_PATH}/NoSuchOp`);
    expect([httpTyped.status, httpTyped.headers['content-type'], httpTyped.text]).toEqual([
      httpLegacy.status,
      httpLegacy.headers['content-type'],
      httpLegacy.text,
    ]);
  });

  it('serves its WSDL, discovery document, help page and operation pages', async () => {
    const wsdl = await request(t.app).get(`${V2_PATH}?wsdl`).set('Host', 'api.example.com');
    expect(wsdl.status).toBe(200);
    expect(wsdl.text).toContain(`targetNamespace="${V2_NS}"`);
    expect(wsdl.text).toContain('<soap12:address location="http://api.example.com/API/v2/MobileAppWebService.asmx" />');
    const disco = await request(t.app).get(`${V2_PATH}?disco`).set('Host', 'api.example.com');
    expect(disco.text).toContain('ref="http://api.example.com/API/v2/MobileAppWebService.asmx?wsdl"');
    const help = await request(t.app).get(V2_PATH);
    expect(help.status).toBe(200);
    expect(help.text).toContain('getPCNList');
    const page = await request(t.app).get(`${V2_PATH}?op=getPCNList`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('&lt;getPCNListResult&gt;');
    expect(page.text).toContain('&lt;ChequeDate&gt;date&lt;/ChequeDate&gt;');
    expect(page.text).toContain('PageToken=string');
    const hello = await request(t.app).get('/API/v2/SyncCustomers.asmx/HelloWorld');
    expect(hello.text).toBe(`<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="${V2_NS}">Hello World</string>`);
  });
});

describe('V2_CONTRACT=false', () => {
  it('serves the legacy contract only', async () => {
    const t = await startTestApp({ env: { V2_CONTRACT: 'false' } });
    try {
      expect((await request(t.app).get(`${V2_PATH}?wsdl`)).status).toBe(404);
      expect((await request(t.app).get(`${V2_PATH}/getPCNList`)).status).toBe(404);
      expect((await request(t.app).get('/API/MobileAppWebService.asmx?wsdl')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
