/**
 * The parameter conventions every binding shares (docs/behaviour.md, "Conventions of every operation";
 * docs/contract.md: parameter names are not case-sensitive), written once and run over the four
 * bindings and the engines. Observed through real operations on an empty database: FillAreaManagers
 * answers NOT_FOUND for an unknown user and every area manager for none; ActivityReportAndComplaints
 * refuses an impossible date.
 */
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { BINDINGS, carried, send, type Outcome } from './drivers';

const UNKNOWN_USER: Outcome = {
  ok: false,
  code: 'NOT_FOUND',
  field: 'username',
  message: "username: 'nobody' is not a known user",
};

describe.each(ENGINES)('parameter conventions: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind }, (started) => (t = started));

  describe.each(BINDINGS)('%s', (binding) => {
    it('matches parameter names without regard to case', async () => {
      for (const name of ['username', 'USERNAME', 'UserName']) {
        expect(await send(t.app, binding, 'FillAreaManagers', [[name, 'nobody']])).toEqual(
          carried(binding, UNKNOWN_USER),
        );
      }
    });

    it('takes the first occurrence of a name', async () => {
      expect(
        await send(t.app, binding, 'FillAreaManagers', [
          ['username', ''],
          ['Username', 'nobody'],
        ]),
      ).toEqual({ ok: true });
      expect(
        await send(t.app, binding, 'FillAreaManagers', [
          ['Username', 'nobody'],
          ['username', ''],
        ]),
      ).toEqual(carried(binding, UNKNOWN_USER));
    });

    it('ignores names the operation does not declare', async () => {
      expect(
        await send(t.app, binding, 'FillAreaManagers', [
          ['user', 'nobody'],
          ['x', '1'],
        ]),
      ).toEqual({ ok: true });
    });

    it('treats a missing and an empty parameter alike: no filter', async () => {
      expect(await send(t.app, binding, 'getPCNList', [])).toEqual({ ok: true });
      expect(
        await send(t.app, binding, 'getPCNList', [
          ['SalesOfficer', ''],
          ['Customer', ' '],
        ]),
      ).toEqual({ ok: true });
    });

    it('refuses a value it cannot read, naming the parameter and the accepted forms', async () => {
      const outcome = await send(t.app, binding, 'ActivityReportAndComplaints', [['FromDate', '31/02/2026']]);
      expect(outcome).toEqual(
        carried(binding, {
          ok: false,
          code: 'INVALID_PARAMETER',
          field: 'FromDate',
          message:
            "FromDate: '31/02/2026' is not a date (use yyyy-MM-dd, dd/MM/yyyy, dd-MM-yyyy, dd.MM.yyyy, dd-MMM-yyyy or dd MMM yyyy)",
        }),
      );
    });

    it('refuses a From after its To on the From field', async () => {
      const outcome = await send(t.app, binding, 'getSalesSummaryRecords', [
        ['FromDate', '2026-05-02'],
        ['ToDate', '2026-05-01'],
      ]);
      expect(outcome).toEqual(
        carried(binding, {
          ok: false,
          code: 'INVALID_PARAMETER',
          field: 'FromDate',
          message: "FromDate: '2026-05-02' is after ToDate '2026-05-01'",
        }),
      );
    });
  });
});
