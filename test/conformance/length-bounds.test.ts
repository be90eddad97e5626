/**
 * Length limits (docs/behaviour.md, "Conventions of every operation"): codes and document numbers
 * at most 50 characters, usernames 100, each item of a list a code; a longer value is
 * INVALID_PARAMETER naming the field, over the four bindings of both contracts, before anything is
 * looked up. And no read takes a value of any parameter longer than any of those limits: every
 * parameter of every read operation is sent 101 characters (as a list's second item for the lists)
 * and refused naming it, so an operation added with an unbounded reader fails here.
 */
import request from 'supertest';
import { mainServiceOperations } from '../../src/services/registry';
import { PARAMETERS } from '../../src/services/parameters';
import { escapeXmlText } from '../../src/asmx/xml-escape';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { findElement, readXml, xmlToValue } from '../support/typed-values';
import { BINDINGS, carried, send, type BindingName, type Outcome } from './drivers';

const tooLong = (field: string, length: number, max: number, item?: number): Outcome => ({
  ok: false,
  code: 'INVALID_PARAMETER',
  field,
  message: `${field}: ${item === undefined ? '' : `item ${item} `}is ${length} characters long; at most ${max} are accepted`,
});

/** [operation, field, value, the refusal] */
const CASES: ReadonlyArray<readonly [string, string, string, Outcome]> = [
  ['getPCNList', 'SalesOfficer', 'S'.repeat(51), tooLong('SalesOfficer', 51, 50)],
  ['getPCNList', 'Customer', 'C'.repeat(51), tooLong('Customer', 51, 50)],
  ['getPCNDetails', 'PDCID', 'P'.repeat(51), tooLong('PDCID', 51, 50)],
  ['getSalesSummaryRecords', 'FromCustomer', 'C'.repeat(51), tooLong('FromCustomer', 51, 50)],
  ['getSalesSummaryRecords', 'profitCenter', 'P'.repeat(51), tooLong('profitCenter', 51, 50)],
  ['getSalesSummaryRecords', 'Zones', `NORTH, ${'Z'.repeat(51)} ,SOUTH`, tooLong('Zones', 51, 50, 2)],
  ['getOpeningBalance', 'CustomerIds', `C001,${'C'.repeat(51)}`, tooLong('CustomerIds', 51, 50, 2)],
  ['getOrderVsDeliveryOfficer', 'ManagerId', 'M'.repeat(51), tooLong('ManagerId', 51, 50)],
  ['getSalesReportStats', 'Username', 'u'.repeat(101), tooLong('Username', 101, 100)],
  ['FillAreaManagers', 'username', 'u'.repeat(101), tooLong('username', 101, 100)],
];

const V2_PATH = '/API/v2/MobileAppWebService.asmx';
const V2_NS = 'http://tempuri.org/v2/';

/** One call on the v2 contract: its failure (Code, Field, Message of the ServiceError), or ok. */
async function sendV2(
  t: TestApp,
  binding: BindingName,
  operation: string,
  field: string,
  value: string,
): Promise<Outcome> {
  let res: request.Response;
  if (binding === 'httpget' || binding === 'httppost') {
    const query = new URLSearchParams({ [field]: value }).toString();
    res =
      binding === 'httpget'
        ? await request(t.app).get(`${V2_PATH}/${operation}?${query}`)
        : await request(t.app).post(`${V2_PATH}/${operation}`).type('form').send(query);
  } else {
    const ns =
      binding === 'soap11' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
    const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body><${operation} xmlns="${V2_NS}"><${field}>${escapeXmlText(value)}</${field}></${operation}></soap:Body></soap:Envelope>`;
    const call = request(t.app)
      .post(V2_PATH)
      .set('Content-Type', binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
    if (binding === 'soap11') call.set('SOAPAction', `"${V2_NS}${operation}"`);
    res = await call.send(body);
  }
  if (res.status === 200) return { ok: true };
  const error = findElement(readXml(res.text), 'ServiceError');
  if (res.status !== 500 || error === undefined)
    throw new Error(`v2 ${binding} ${operation}: HTTP ${res.status}: ${res.text}`);
  const { Code, Field, Message } = xmlToValue(error) as Record<string, string>;
  return { ok: false, code: Code, field: Field, message: Message };
}

/** Every read operation with each of its parameters. */
const READ_PARAMETERS = mainServiceOperations
  .filter((op) => op.kind === 'read')
  .flatMap((op) => [...op.params, ...op.fields].map((name) => [op.name, name] as const));

describe.each(ENGINES)('length limits: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind }, (started) => (t = started));

  describe.each(BINDINGS)('%s', (binding) => {
    it.each(CASES)('%s refuses a %s over the bound, naming it', async (operation, field, value, refusal) => {
      expect(await send(t.app, binding, operation, [[field, value]])).toEqual(carried(binding, refusal));
      expect(await sendV2(t, binding, operation, field, value)).toEqual(refusal);
    });

    it('takes a code of 50 characters and a username of 100', async () => {
      expect(
        await send(t.app, binding, 'getPCNList', [
          ['SalesOfficer', 'S'.repeat(50)],
          ['Customer', 'C'.repeat(50)],
        ]),
      ).toEqual({ ok: true });
      expect(await send(t.app, binding, 'getOpeningBalance', [['CustomerIds', `C001,${'C'.repeat(50)}`]])).toEqual({
        ok: true,
      });
      const unknown = await send(t.app, binding, 'FillAreaManagers', [['username', 'u'.repeat(100)]]);
      expect(unknown).toEqual(
        carried(binding, {
          ok: false,
          code: 'NOT_FOUND',
          field: 'username',
          message: `username: '${'u'.repeat(100)}' is not a known user`,
        }),
      );
    });
  });

  it.each(READ_PARAMETERS)('%s refuses 101 characters in %s, naming it', async (operation, name) => {
    const long = 'X'.repeat(101);
    const value = PARAMETERS[name]?.kind === 'list' ? `A,${long}` : long;
    const outcome = await send(t.app, 'httpget', operation, [[name, value]]);
    expect({ ok: outcome.ok, code: outcome.code, field: outcome.field }).toEqual({
      ok: false,
      code: 'INVALID_PARAMETER',
      field: name,
    });
  });
});
