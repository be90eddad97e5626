/**
 * A client built from the served v2 ?wsdl (docs/v2.md) by the tooling of another platform (gSOAP's
 * wsdl2h and soapcpp2, JAX-WS's wsimport, .NET's wsdl, SOAP::Lite's stub), then run against the real
 * server on demo data. The
 * client program (test/interop/clients/) makes the same calls on every platform: a page of the PCN
 * list, a cheque's details, a PCN's invoices, and an invalid month; it prints, one JSON object per line,
 * what its generated types deserialised. The suite checks the typed data against the legacy HTTP GET
 * JSON of the same call, field by field, and the fault's typed ServiceError.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seed } from '../../src/demo-data';
import { mainServiceOperations } from '../../src/services/registry';
import { listenTestApp, type ListeningApp } from '../support/listen';
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

export interface CompiledClient {
  /** Generates and compiles the client in `dir` from the WSDL file; returns the command that runs it. */
  build(dir: string, wsdlFile: string, wsdlUrl: string): Promise<{ command: string; args: string[] }>;
  /** The fault code the client reports (the SOAP version it speaks), when it reports one. */
  faultCode?: string;
}

export function describeCompiledClient(title: string, client: CompiledClient): void {
  describe(title, () => {
    let server: ListeningApp;
    let dir: string;
    let records: ClientRecord[];
    const inputs: Record<string, string> = {};

    beforeAll(async () => {
      server = await listenTestApp({ clock: { now: () => new Date('2026-05-15T10:00:00Z') } });
      await seed(server.engine, { scale: 0.03, asOf: '2026-05-15' });
      await nameCustomerNonAscii(server.engine.db);
      const db = server.engine.db;
      const officer = await db.selectFrom('users').select('id').where('role', '=', 'SO').orderBy('id').executeTakeFirstOrThrow();
      const cheque = await db.selectFrom('pcn').select(['pdc_id', 'pcn_no']).where('sales_officer_id', '=', officer.id).orderBy('pdc_id').executeTakeFirstOrThrow();
      Object.assign(inputs, { officer: officer.id, pdcId: cheque.pdc_id, pcnNo: cheque.pcn_no });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compiled-client-'));
      const wsdlUrl = `${server.baseUrl}/API/v2/MobileAppWebService.asmx?wsdl`;
      const wsdlFile = path.join(dir, 'MobileAppWebService.wsdl');
      fs.writeFileSync(wsdlFile, await (await fetch(wsdlUrl)).text());
      const { command, args } = await client.build(dir, wsdlFile, wsdlUrl);
      const endpoint = `${server.baseUrl}/API/v2/MobileAppWebService.asmx`;
      const { stdout } = await run(command, [...args, endpoint, inputs.officer, inputs.pdcId, inputs.pcnNo], { cwd: dir });
      records = stdout.trim().split('\n').map((line) => JSON.parse(line) as ClientRecord);
    }, 240_000);
    afterAll(async () => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      await server.stop();
    });

    async function legacy(operation: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
      return (await (await fetch(`${server.baseUrl}/API/MobileAppWebService.asmx/${operation}?${new URLSearchParams(fields).toString()}`)).json()) as Record<string, unknown>;
    }

    it.each([
      ['getPCNList', () => ({ SalesOfficer: inputs.officer, PageSize: '3' })],
      ['getPCNDetails', () => ({ PDCID: inputs.pdcId })],
      ['getPCNInvoices', () => ({ PCNNO: inputs.pcnNo })],
    ])('%s: the typed data equals the legacy JSON', async (operation, fields) => {
      const record = records.find((r) => r.operation === operation);
      expect(record?.ok).toBe(true);
      expect(typedAsJson(record?.result, OPERATIONS.get(operation)!.returns, 'PageSize' in fields())).toEqual(jsonMembers(await legacy(operation, fields())));
    });

    it('an invalid month is a fault whose typed ServiceError carries the code, field and message', async () => {
      const expected = await legacy('getOpeningBalance', { Month: '13' });
      const record = records.find((r) => r.operation === 'getOpeningBalance');
      expect(record?.ok).toBe(false);
      expect(record?.fault?.detail).toEqual({ Code: expected.Code, Field: expected.Field, Message: expected.Message });
      if (client.faultCode !== undefined) expect(record?.fault?.code).toBe(client.faultCode);
    });
  });
}
