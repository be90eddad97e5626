/**
 * Each operation's refusals of its contract parameters, written once and run over the four bindings and
 * the engines (docs/behaviour.md, "Conventions of every operation"): for every parameter the WSDL gives
 * an operation and that takes a checked value, a value it cannot read is refused naming that
 * parameter, with the same code and message on every binding (SOAP carries the message in its
 * Client/Sender fault, drivers.ts). A code filter or range bound that names nothing is no error (it
 * selects nothing) on every binding. Observed on an empty database, so each answer depends on the
 * input alone.
 */
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { MAIN_OPERATIONS } from '../support/interface-table';
import { BINDINGS, carried, send, type Outcome } from './drivers';

/** A value each checked parameter cannot read, the code it is refused with, and how the message starts. */
const REFUSED: Readonly<Record<string, { value: string; code: string; message: string }>> = {
  FromDate: { value: '31/02/2026', code: 'INVALID_PARAMETER', message: "FromDate: '31/02/2026' is not a date (use yyyy-MM-dd, dd/MM/yyyy" },
  ToDate: { value: '2026-13-01', code: 'INVALID_PARAMETER', message: "ToDate: '2026-13-01' is not a date (use yyyy-MM-dd, dd/MM/yyyy" },
  SortBy: { value: 'NoSuchColumn', code: 'INVALID_PARAMETER', message: "SortBy: 'NoSuchColumn' is not a field of the result (use one of " },
  SortDirection: { value: 'sideways', code: 'INVALID_PARAMETER', message: "SortDirection: 'sideways' is not a direction (use ASC or DESC)" },
  PaymentType: { value: 'CHEQUES', code: 'INVALID_PARAMETER', message: "PaymentType: 'CHEQUES' is not accepted (use one of PDC, CURRENT, ADVANCE)" },
  PaymentMethod: { value: 'PIGEON', code: 'INVALID_PARAMETER', message: "PaymentMethod: 'PIGEON' is not accepted (use one of CHEQUE, DD, NEFT, RTGS, UPI, CASH)" },
  Month: { value: '13', code: 'INVALID_PARAMETER', message: "Month: '13' is not a month (use 1-12, Jan-Dec or January-December)" },
  Year: { value: 'abc', code: 'INVALID_PARAMETER', message: "Year: 'abc' is not a year (use four digits, e.g. 2026)" },
  Role: { value: 'KING', code: 'INVALID_PARAMETER', message: "Role: 'KING' is not accepted (use one of ADMIN, ZM, AM, SO)" },
  Username: { value: 'nobody', code: 'NOT_FOUND', message: "Username: no user 'nobody'" },
  username: { value: 'nobody', code: 'NOT_FOUND', message: "username: 'nobody' is not a known user" },
};

/** Code filters and range bounds: a code that names nothing is no error. */
const SELECTS_NOTHING: Readonly<Record<string, string>> = {
  SalesOfficer: 'NO-SUCH-OFFICER',
  Customer: 'NO-SUCH-CUSTOMER',
  FromCustomer: 'ZZZZ',
  ToCustomer: 'AAAA',
  FromPCat: 'ZZZZ',
  ToPCat: 'AAAA',
  ManagerId: 'NO-SUCH-MANAGER',
  profitCenter: 'NO-SUCH-PC',
  Zones: 'NO-SUCH-ZONE',
  States: 'NO-SUCH-STATE',
  PCNNO: 'NO-SUCH-PCN',
  PDCID: 'NO-SUCH-PDC',
  CustomerIds: 'NO-SUCH-CUSTOMER',
};

const REFUSALS = MAIN_OPERATIONS.flatMap(([operation, params]) => params.filter((p) => p in REFUSED).map((param) => [operation, param] as const));
const EMPTY_FILTERS = MAIN_OPERATIONS.flatMap(([operation, params]) => params.filter((p) => p in SELECTS_NOTHING).map((param) => [operation, param] as const));

test('every contract parameter of the main service is in one of the tables, and every entry is used', () => {
  const contract = new Set(MAIN_OPERATIONS.flatMap(([, params]) => params));
  expect([...contract].sort()).toEqual([...Object.keys(REFUSED), ...Object.keys(SELECTS_NOTHING)].sort());
});

describe.each(ENGINES)('each operation refuses what it cannot read: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind }, (started) => (t = started));

  it.each(REFUSALS)('%s refuses a bad %s the same way on every binding', async (operation, param) => {
    const { value, code, message } = REFUSED[param];
    const reference = await send(t.app, 'httpget', operation, { [param]: value });
    expect(reference).toEqual({ ok: false, code, field: param, message: expect.any(String) });
    expect(reference.message?.startsWith(message)).toBe(true);
    for (const binding of BINDINGS) {
      expect(await send(t.app, binding, operation, { [param]: value })).toEqual(carried(binding, reference));
    }
  });

  it.each(EMPTY_FILTERS)('%s takes a %s that names nothing without refusing it, on every binding', async (operation, param) => {
    for (const binding of BINDINGS) {
      const outcome: Outcome = await send(t.app, binding, operation, { [param]: SELECTS_NOTHING[param] });
      expect(outcome).toEqual({ ok: true });
    }
  });
});
