/**
 * A client built from the served v2 ?wsdl (docs/v2.md) by the tooling of another platform (gSOAP's
 * wsdl2h and soapcpp2, JAX-WS's wsimport, .NET's wsdl, SOAP::Lite's stub), then run against the real
 * server on demo data (a customer's name non-ASCII). The suite checks what the client's generated
 * types deserialised against the legacy HTTP GET JSON of the same call, field by field, and each
 * business error's ServiceError.
 *
 * A client that can call operations by name (reflection in Java and C#, Perl's method calls) makes
 * every call of every operation (src/demo-data/operation-calls.ts), listed in a file: one line per call,
 * the operation and its arguments in the v2 WSDL's order, tab-separated, percent-encoded, "~" for none.
 * A client written against its generated classes (C++) makes a fixed set: a page of the PCN list, a
 * cheque's details, a PCN's invoices and an invalid month. Either prints one JSON object per call.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seed } from '../../src/demo-data';
import { mainServiceOperations } from '../../src/services/registry';
import { contractInputs } from '../../src/services/types';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { demoDataCalls, firstUserOf, type Fields } from '../../src/demo-data/operation-calls';
import { nameCustomerNonAscii } from '../support/operation-inputs';
import { jsonMembers, typedAsJson } from '../support/typed-values';

export const run = promisify(execFile);
const OPERATIONS = new Map(mainServiceOperations.map((op) => [op.name, op]));

interface ClientRecord {
  operation: string;
  ok: boolean;
  result?: unknown;
  fault?: { code?: string; detail: Record<string, unknown> | null };
}

interface Call {
  operation: string;
  fields: Fields;
}

export interface CompiledClient {
  /** Builds the client in `dir` from the WSDL file; returns the command that runs it (the suite adds its arguments). */
  build(dir: string, wsdlFile: string): Promise<{ command: string; args: string[] }>;
  /** The fault code the client reports (the SOAP version it speaks), when it reports one. */
  faultCode?: string;
  /** The client takes a calls file and makes every call; otherwise it makes its fixed set. */
  everyCall: boolean;
}

function callsFile(calls: readonly Call[]): string {
  return calls
    .map(({ operation, fields }) =>
      [
        operation,
        ...contractInputs(OPERATIONS.get(operation)!, 'v2').map((name) =>
          fields[name] === undefined ? '~' : encodeURIComponent(fields[name]),
        ),
      ].join('\t'),
    )
    .join('\n');
}

export function describeCompiledClient(title: string, client: CompiledClient): void {
  describe(title, () => {
    let server: ListeningApp;
    let dir: string;
    let calls: Call[];
    let records: ClientRecord[];
    /** The legacy HTTP GET JSON of each call, by its position in `calls`. */
    const legacy: Record<string, unknown>[] = [];

    const json = async ({ operation, fields }: Call) =>
      (await (
        await fetch(
          `${server.baseUrl}/API/MobileAppWebService.asmx/${operation}?${new URLSearchParams(fields).toString()}`,
        )
      ).json()) as Record<string, unknown>;

    beforeAll(async () => {
      server = await listenTestApp({ clock: { now: () => new Date('2026-05-15T10:00:00Z') } });
      await seed(server.engine, { scale: 0.03, asOf: '2026-05-15' });
      await nameCustomerNonAscii(server.engine.db);
      const db = server.engine.db;
      const officer = await firstUserOf(db, 'SO');
      const cheque = await db
        .selectFrom('pcn')
        .select(['pdc_id', 'pcn_no'])
        .where('sales_officer_id', '=', officer)
        .orderBy('pdc_id')
        .executeTakeFirstOrThrow();
      calls = client.everyCall
        ? Object.entries(await demoDataCalls(db)).flatMap(([operation, list]) =>
            list.map((fields) => ({ operation, fields })),
          )
        : [
            { operation: 'getPCNList', fields: { SalesOfficer: officer, PageSize: '3' } },
            { operation: 'getPCNDetails', fields: { PDCID: cheque.pdc_id } },
            { operation: 'getPCNInvoices', fields: { PCNNO: cheque.pcn_no } },
            { operation: 'getOpeningBalance', fields: { Month: '13' } },
          ];
      // The writes are made once first, so that every answer read next (the dashboard's counts too)
      // is what the client's calls see: repeated, each write answers the same Data.
      for (const call of calls) await json(call);
      for (const call of calls) legacy.push(await json(call));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-client-'));
      const wsdlFile = path.join(dir, 'MobileAppWebService.wsdl');
      fs.writeFileSync(wsdlFile, await (await fetch(`${server.baseUrl}/API/v2/MobileAppWebService.asmx?wsdl`)).text());
      const { command, args } = await client.build(dir, wsdlFile);
      const endpoint = `${server.baseUrl}/API/v2/MobileAppWebService.asmx`;
      const input = client.everyCall ? [path.join(dir, 'calls.txt')] : [officer, cheque.pdc_id, cheque.pcn_no];
      if (client.everyCall) fs.writeFileSync(input[0], callsFile(calls));
      const { stdout } = await run(command, [...args, endpoint, ...input], { cwd: dir, maxBuffer: 64 * 1024 * 1024 });
      records = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as ClientRecord);
    }, 240_000);
    afterAll(async () => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await server.stop();
    });

    it('made every call, and each answers the legacy JSON data, typed', () => {
      expect(records.map((r) => r.operation)).toEqual(calls.map((c) => c.operation));
      let data = 0;
      records.forEach((record, i) => {
        const expected = legacy[i];
        const label = { operation: record.operation, fields: calls[i].fields };
        if (expected.Success === false) return;
        expect({ ...label, ok: record.ok }).toEqual({ ...label, ok: true });
        const op = OPERATIONS.get(record.operation)!;
        const typed = typedAsJson(
          record.result,
          op.returns,
          'PageSize' in calls[i].fields || 'PageToken' in calls[i].fields,
        );
        const members = jsonMembers(expected);
        // A write repeated answers the same Data with its own message ("already ...").
        if (op.kind === 'write' && members.Data !== null) typed.Message = members.Message;
        expect({ ...label, typed }).toEqual({ ...label, typed: members });
        data++;
      });
      expect(data).toBeGreaterThanOrEqual(3);
    });

    it('gets each business error as a fault whose ServiceError carries the code, field and message', () => {
      const failures = records
        .map((record, i) => [record, legacy[i], calls[i]] as const)
        .filter(([, expected]) => expected.Success === false);
      expect(failures.length).toBeGreaterThanOrEqual(1);
      for (const [record, expected, call] of failures) {
        const label = { operation: call.operation, fields: call.fields };
        expect({ ...label, ok: record.ok, detail: record.fault?.detail }).toEqual({
          ...label,
          ok: false,
          detail: { Code: expected.Code, Field: expected.Field, Message: expected.Message },
        });
        if (client.faultCode !== undefined) expect(record.fault?.code).toBe(client.faultCode);
      }
    });
  });
}
