/**
 * Real clients other people wrote, against the real server on 127.0.0.1:<random port>: each fetches
 * ?wsdl, builds its proxy from it and calls HelloWorld and main-service operations (with and without
 * parameters, a write without input, an invalid date) over every binding it supports: python3-zeep
 * (SOAP 1.1, SOAP 1.2, HttpGet, HttpPost), PHP's SoapClient (SOAP_1_1, SOAP_1_2) and the npm soap
 * client (1.1, and 1.2 with forceSoap12Headers). A client this machine lacks is left out, and said so.
 */
import { insertMasterData, PROFIT_CENTERS } from '../support/fixture';
import { NO_INPUT_MESSAGE } from '../../src/services/mobile-app';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { detectClients, type CallRecord, type ClientBinding, type MainCall } from './interop-clients';

const INVALID_DATE = "FromDate: '31/02/2026' is not a date (use";

const CALLS: MainCall[] = [
  { operation: 'getPCNList', args: {} },
  { operation: 'getPCNList', args: { Customer: 'C001', PaymentType: 'PDC' } },
  {
    operation: 'getSalesSummaryRecords',
    args: { FromDate: '2026-01-01', ToDate: '2026-03-31', SortDirection: 'DESC' },
  },
  { operation: 'getOpeningBalance', args: { CustomerIds: 'C001,C002', Month: '3', Year: '2026' } },
  { operation: 'FillProfitCenterForCustomer', args: {} },
  { operation: 'CreateWarrantyRequest', args: {} },
  { operation: 'getSalesSummaryRecords', args: { FromDate: '31/02/2026' } },
];

const { available, leftOut } = detectClients();
for (const line of leftOut) process.stdout.write(`[left out] interop with ${line}\n`);

let server: ListeningApp;
beforeAll(async () => {
  server = await listenTestApp();
  await insertMasterData(server.engine.db);
});
afterAll(() => server.stop());

const isSoap = (binding: ClientBinding) => binding === 'soap11' || binding === 'soap12';

describe.each(available.map((client) => [client.name, client] as const))('%s', (_name, client) => {
  let records: CallRecord[];
  beforeAll(async () => {
    records = await client.run(`${server.baseUrl}/API`, CALLS);
  });

  const of = (binding: ClientBinding) => records.filter((record) => record.binding === binding);
  const find = (binding: ClientBinding, operation: string, args: Record<string, string> = {}) => {
    const record = of(binding).find(
      (r) => r.operation === operation && JSON.stringify(r.args) === JSON.stringify(args),
    );
    if (!record) throw new Error(`no ${operation} call over ${binding} in ${JSON.stringify(records)}`);
    return record;
  };

  it.each(client.bindings.map((binding) => [binding]))('%s: made every call', (binding) => {
    expect(of(binding).map((record) => record.operation)).toEqual([
      'HelloWorld',
      ...CALLS.map((call) => call.operation),
    ]);
  });

  it.each(client.bindings.map((binding) => [binding]))('%s: HelloWorld answers "Hello World"', (binding) => {
    expect(find(binding, 'HelloWorld')).toMatchObject({ ok: true, value: 'Hello World' });
  });

  const soapBindings = client.bindings.filter(isSoap);
  const httpBindings = client.bindings.filter((binding) => !isSoap(binding));

  if (soapBindings.length > 0) {
    it.each(soapBindings.map((binding) => [binding]))(
      '%s: main-service calls succeed with the empty response, no fault',
      (binding) => {
        const valid = CALLS.slice(0, -1);
        for (const call of valid)
          expect(find(binding, call.operation, call.args)).toMatchObject({ ok: true, value: null });
      },
    );

    it.each(soapBindings.map((binding) => [binding]))(
      '%s: an invalid date is a Client/Sender fault with the documented text',
      (binding) => {
        const record = find(binding, 'getSalesSummaryRecords', { FromDate: '31/02/2026' });
        expect(record.ok).toBe(false);
        expect(record.fault?.code).toMatch(binding === 'soap11' ? /^(soap:)?Client$/ : /^(soap:)?Sender$/);
        expect(record.fault?.message.startsWith(INVALID_DATE)).toBe(true);
      },
    );
  }

  if (httpBindings.length > 0) {
    it.each(httpBindings.map((binding) => [binding]))(
      '%s: main-service calls answer the JSON results of docs/behaviour.md',
      (binding) => {
        expect(find(binding, 'getPCNList').value).toMatchObject({
          Success: true,
          Message: '',
          Data: expect.any(Array),
        });
        expect(find(binding, 'getPCNList', { Customer: 'C001', PaymentType: 'PDC' }).value).toMatchObject({
          Success: true,
          Count: 0,
          Data: [],
        });
        const profitCenters = find(binding, 'FillProfitCenterForCustomer').value as {
          Success: boolean;
          Data: { Code: string }[];
        };
        expect(profitCenters.Success).toBe(true);
        expect(profitCenters.Data.map((row) => row.Code).sort()).toEqual(PROFIT_CENTERS.map((row) => row.code).sort());
        expect(find(binding, 'CreateWarrantyRequest').value).toEqual({
          Success: true,
          Message: NO_INPUT_MESSAGE,
          Data: null,
        });
      },
    );

    it.each(httpBindings.map((binding) => [binding]))(
      '%s: an invalid date is a JSON failure naming the parameter',
      (binding) => {
        const body = find(binding, 'getSalesSummaryRecords', { FromDate: '31/02/2026' }).value as Record<
          string,
          unknown
        >;
        expect(body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: 'FromDate', Data: null });
        expect(String(body.Message).startsWith(INVALID_DATE)).toBe(true);
      },
    );
  }

  it('CreateWarrantyRequest without input changed nothing', async () => {
    const rows = await server.engine.db
      .selectFrom('warranty_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(0);
  });
});
