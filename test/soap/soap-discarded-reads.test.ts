/**
 * Over SOAP the legacy contract answers every main-service operation with the empty <opResponse/>
 * (docs/behaviour.md), so a read is only checked there: its parameters and the caller's scope give the
 * same faults as before, and the query whose result would be thrown away does not run. Proven on a
 * database whose report tables are renamed away: SOAP still answers (200 empty, or the same fault),
 * HTTP GET, which answers the data, fails with the server's own error.
 */
import { sql } from 'kysely';
import type { TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { basic, call, clientFault, givePassword, MAIN, NS, suiteAuthApp, type BindingName } from '../auth/auth-support';
import { emptyResponse } from './soap-support';

const SOAP_BINDINGS: Array<Extract<BindingName, 'soap11' | 'soap12'>> = ['soap11', 'soap12'];

/** The tables the list reads query; the master tables (users, customers) stay. */
const REPORT_TABLES = ['pcn', 'receipts', 'activities', 'complaints'];

async function hideReportTables(app: TestApp): Promise<void> {
  for (const table of REPORT_TABLES)
    await sql`alter table ${sql.table(table)} rename to ${sql.table(`${table}_hidden`)}`.execute(app.engine.db);
}

/** The JSON error an HTTP binding answers (Success false), whose message the SOAP fault carries. */
function httpError(text: string): { Code: string; Message: string } {
  const body = JSON.parse(text) as { Success: boolean; Code: string; Message: string };
  expect(body.Success).toBe(false);
  return body;
}

describe.each(ENGINES)('SOAP reads whose result is discarded (%s)', (kind) => {
  describe('authentication off', () => {
    let app: TestApp;
    suiteAuthApp(
      kind,
      {},
      (started) => (app = started),
      async () => {
        await hideReportTables(app);
      },
    );

    it.each([
      ['getPCNList', { SalesOfficer: 'SO01' }, 'a 500'],
      // A streamed list's first bytes leave before its count, so the count's failure cuts the connection.
      [
        'getCollectionStatements',
        { SalesOfficer: 'SO01', FromDate: '2026-01-01', ToDate: '2026-06-30' },
        'a cut stream',
      ],
      // A page is read whole before it is written, so its failure is a 500 rather than a cut stream.
      ['ActivityReportAndComplaints', { SalesOfficer: 'SO01', PageSize: '10' }, 'a 500'],
    ])(
      '%s answers the empty response over SOAP without its query, and fails over HTTP GET (%j, %s)',
      async (operation, values, failure) => {
        for (const binding of SOAP_BINDINGS) {
          const res = await call(app.app, binding, MAIN, operation, values);
          expect(res.status).toBe(200);
          expect(res.text).toBe(emptyResponse(binding === 'soap11' ? '1.1' : '1.2', operation, NS));
        }
        const http = call(app.app, 'httpget', MAIN, operation, values);
        // Cut after the head was written: the client sees the answer aborted, or, when the cut came
        // before the head left the socket's buffer, the connection hung up without one. Never a whole answer.
        if (failure === 'a cut stream') await expect(http).rejects.toThrow(/^(aborted|socket hang up)$/);
        else expect((await http).status).toBe(500);
      },
    );

    it.each([
      ['getPCNList', { PaymentType: 'CHEQUES' }],
      ['getCollectionStatements', { FromDate: '31/02/2026' }],
      ['ActivityReportAndComplaints', { FromDate: '2026-06-30', ToDate: '2026-01-01' }],
      ['getPCNList', { PageSize: '10', PageToken: 'not-a-token' }],
    ])('%s still refuses an invalid input with a Client/Sender fault (%j)', async (operation, values) => {
      const { Code, Message } = httpError((await call(app.app, 'httpget', MAIN, operation, values)).text);
      expect(Code).toBe('INVALID_PARAMETER');
      for (const binding of SOAP_BINDINGS) {
        const res = await call(app.app, binding, MAIN, operation, values);
        expect(res.status).toBe(500);
        expect(res.text).toBe(clientFault(binding, Message));
      }
    });

    it('still answers NOT_FOUND for an unknown user, which decides what a report may show', async () => {
      const values = { Username: 'nobody' };
      const { Code, Message } = httpError(
        (await call(app.app, 'httpget', MAIN, 'ActivityReportAndComplaints', values)).text,
      );
      expect(Code).toBe('NOT_FOUND');
      for (const binding of SOAP_BINDINGS) {
        expect((await call(app.app, binding, MAIN, 'ActivityReportAndComplaints', values)).text).toBe(
          clientFault(binding, Message),
        );
      }
    });
  });

  describe('authentication on', () => {
    let app: TestApp;
    const asSoOne = basic('so.one', 'secret one');
    suiteAuthApp(
      kind,
      { AUTH_MODE: 'basic' },
      (started) => (app = started),
      async () => {
        await givePassword(app, 'so.one', 'secret one');
        await hideReportTables(app);
      },
    );

    // A user named outside the scope is answered as an unknown one (docs/behaviour.md, "Records outside the caller's scope").
    it.each([
      ['getPCNList', { SalesOfficer: 'SO03' }, 'SalesOfficer', 'FORBIDDEN'],
      ['getPCNList', { Customer: 'C004' }, 'Customer', 'FORBIDDEN'],
      ['getCollectionStatements', { SalesOfficer: 'so03' }, 'SalesOfficer', 'FORBIDDEN'],
      ['getCollectionStatements', { FromCustomer: 'C004' }, 'FromCustomer', 'FORBIDDEN'],
      ['ActivityReportAndComplaints', { SalesOfficer: 'SO03' }, 'SalesOfficer', 'FORBIDDEN'],
      ['getOpeningBalance', { CustomerIds: 'C001,C004' }, 'CustomerIds', 'FORBIDDEN'],
      ['getSalesSummaryRecords', { SalesOfficer: 'SO03' }, 'SalesOfficer', 'FORBIDDEN'],
      ['getOrderVsDeliveryOfficer', { ManagerId: 'AM02' }, 'ManagerId', 'FORBIDDEN'],
      ['getSalesReportStats', { Username: 'so.three' }, 'Username', 'NOT_FOUND'],
      ['FillAreaManagers', { username: 'so.three' }, 'username', 'NOT_FOUND'],
      ['SyncWarrantyReqList', { SalesOfficer: 'SO03' }, 'SalesOfficer', 'FORBIDDEN'],
    ])(
      "%s refuses a filter outside the user's scope over SOAP as over HTTP (%j)",
      async (operation, values, field, code) => {
        const { Code, Message } = httpError((await call(app.app, 'httpget', MAIN, operation, values, asSoOne)).text);
        expect(Code).toBe(code);
        expect(Message.startsWith(`${field}:`)).toBe(true);
        for (const binding of SOAP_BINDINGS) {
          const res = await call(app.app, binding, MAIN, operation, values, asSoOne);
          expect(res.status).toBe(500);
          expect(res.text).toBe(clientFault(binding, Message));
        }
      },
    );

    it('answers a read within the scope with the empty response over SOAP without its query', async () => {
      for (const binding of SOAP_BINDINGS) {
        const res = await call(app.app, binding, MAIN, 'getPCNList', { SalesOfficer: 'SO01' }, asSoOne);
        expect(res.status).toBe(200);
        expect(res.text).toBe(emptyResponse(binding === 'soap11' ? '1.1' : '1.2', 'getPCNList', NS));
      }
      expect((await call(app.app, 'httpget', MAIN, 'getPCNList', { SalesOfficer: 'SO01' }, asSoOne)).status).toBe(500);
    });
  });
});
