/**
 * Real clients other people wrote, generated from the served v2 ?wsdl (docs/v2.md), against the real
 * server on demo data: python3-zeep (SOAP 1.1, SOAP 1.2, HttpGet), python3-suds (SOAP 1.1, the only
 * version it speaks), PHP's SoapClient (SOAP_1_1, SOAP_1_2) and the npm soap client (1.1, and 1.2 with
 * forceSoap12Headers) call every operation
 * (src/demo-data/operation-calls.ts) and receive typed data equal, field by field, to the legacy HTTP
 * GET JSON of the same call: money, dates, timestamps, empty lists, nulls and a non-ASCII customer
 * name included. A business error reaches each client as a fault carrying its code. A client this
 * machine lacks is left out, and said so.
 */
import { seed } from '../../src/demo-data';
import { mainServiceOperations } from '../../src/services/registry';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { demoDataCalls } from '../../src/demo-data/operation-calls';
import { nameCustomerNonAscii, NON_ASCII_NAME } from '../support/operation-inputs';
import { jsonMembers, typedAsJson } from '../support/typed-values';
import { detectTypedClients, type MainCall, type TypedCallRecord } from './interop-clients';

const OPERATIONS = new Map(mainServiceOperations.map((op) => [op.name, op]));

const { available, leftOut } = detectTypedClients();
for (const line of leftOut) process.stdout.write(`[left out] interop with ${line}\n`);

let server: ListeningApp;
let calls: MainCall[];
/** The legacy HTTP GET JSON of each call, by its position in `calls`. */
const legacy: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = await listenTestApp({ clock: { now: () => new Date('2026-05-15T10:00:00Z') } });
  await seed(server.engine, { scale: 0.03, asOf: '2026-05-15' });
  await nameCustomerNonAscii(server.engine.db);
  const table = await demoDataCalls(server.engine.db);
  calls = Object.entries(table).flatMap(([operation, list]) => list.map((args) => ({ operation, args })));
  const json = async (call: MainCall) => {
    const res = await fetch(
      `${server.baseUrl}/API/MobileAppWebService.asmx/${call.operation}?${new URLSearchParams(call.args).toString()}`,
    );
    return (await res.json()) as Record<string, unknown>;
  };
  // The writes are made once first, so that every answer read next (the dashboard's counts too) is
  // what the clients' calls see: repeated, each write answers the same Data.
  for (const call of calls) await json(call);
  for (const call of calls) legacy.push(await json(call));
}, 120_000);
afterAll(() => server.stop());

describe.each(available.map((client) => [client.name, client] as const))('%s', (_name, client) => {
  let records: TypedCallRecord[];
  beforeAll(async () => {
    records = await client.run(`${server.baseUrl}/API/v2`, calls);
  }, 120_000);

  it.each(client.bindings.map((binding) => [binding]))(
    '%s: every call answers the legacy JSON data, typed',
    (binding) => {
      const mine = records.filter((record) => record.binding === binding);
      expect(mine.map((record) => record.operation)).toEqual(calls.map((call) => call.operation));
      let nonAscii = 0;
      mine.forEach((record, i) => {
        const expected = legacy[i];
        const label = { operation: record.operation, args: record.args };
        if (expected.Success === false) {
          expect({ ...label, ok: record.ok }).toEqual({ ...label, ok: false });
          return;
        }
        expect({ ...label, ok: record.ok, fault: record.fault }).toEqual({ ...label, ok: true, fault: undefined });
        const op = OPERATIONS.get(record.operation)!;
        const typed = typedAsJson(record.result, op.returns, 'PageSize' in record.args || 'PageToken' in record.args);
        const members = jsonMembers(expected);
        // A write repeated answers the same Data with its own message ("already ...").
        if (op.kind === 'write' && members.Data !== null) typed.Message = members.Message;
        expect({ ...label, typed }).toEqual({ ...label, typed: members });
        if (JSON.stringify(typed).includes(NON_ASCII_NAME)) nonAscii++;
      });
      expect(nonAscii).toBeGreaterThan(2);
    },
  );

  it.each(client.bindings.map((binding) => [binding]))(
    '%s: a business error is a fault with its code, field and message',
    (binding) => {
      const failures = records.filter((record) => record.binding === binding && !record.ok);
      expect(failures.length).toBeGreaterThan(5);
      for (const record of failures) {
        const expected =
          legacy[
            calls.findIndex(
              (call) =>
                call.operation === record.operation && JSON.stringify(call.args) === JSON.stringify(record.args),
            )
          ];
        const detail = record.fault?.detail as Record<string, unknown> | undefined;
        const label = { operation: record.operation, args: record.args };
        expect({ ...label, Code: detail?.Code, Field: detail?.Field ?? null, Message: detail?.Message }).toEqual({
          ...label,
          Code: expected.Code,
          Field: expected.Field,
          Message: expected.Message,
        });
        if (binding === 'soap11') expect(record.fault?.code).toMatch(/^(soap:)?Client$/);
        if (binding === 'soap12') expect(record.fault?.code).toMatch(/^(soap:)?Sender$/);
      }
    },
  );
});
