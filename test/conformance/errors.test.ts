/**
 * Each operation's refusals of its contract parameters, written once and run over the four bindings and
 * the engines (docs/behaviour.md, "Conventions of every operation"): for every parameter the WSDL gives
 * an operation and that takes a checked value, a value it cannot read is refused naming that
 * parameter, with the same code and message on every binding (SOAP carries the message in its
 * Client/Sender fault, drivers.ts). A code filter or range bound that names nothing is no error (it
 * selects nothing) on every binding. Which is which follows from the parameters' descriptions
 * (src/services/parameters.ts). Observed on an empty database, so each answer depends on the input alone.
 */
import { PARAMETERS, type ParameterDescription } from '../../src/services/parameters';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { MAIN_OPERATIONS } from '../support/interface-table';
import { BINDINGS, carried, send, type Outcome } from './drivers';

/** A value `parameter` cannot read, by its kind; a text or list checks nothing unless it names a value it refuses. */
function refusedValue(parameter: ParameterDescription): string | undefined {
  switch (parameter.kind) {
    case 'date':
      return '2026-13-01';
    case 'integer':
      return 'abc';
    case 'word':
      return 'NO-SUCH-WORD';
    case 'sortField':
      return 'NoSuchColumn';
    case 'text':
    case 'list':
      return parameter.refused;
  }
}

/** A code that names nothing. */
const NOTHING = 'NO-SUCH-CODE';

const CASES = MAIN_OPERATIONS.flatMap(([operation, params]) =>
  params.map((param) => {
    const description = PARAMETERS[param];
    if (description === undefined)
      throw new Error(
        `${param} of ${operation} has no description: add it to PARAMETERS in src/services/parameters.ts`,
      );
    return { operation, param, refused: refusedValue(description) };
  }),
);
const REFUSALS = CASES.flatMap(({ operation, param, refused }) =>
  refused === undefined ? [] : [[operation, param, refused] as const],
);
const EMPTY_FILTERS = CASES.flatMap(({ operation, param, refused }) =>
  refused === undefined ? [[operation, param] as const] : [],
);

test('both kinds of parameter are met, so neither table is empty by mistake', () => {
  expect(REFUSALS.length).toBeGreaterThan(0);
  expect(EMPTY_FILTERS.length).toBeGreaterThan(0);
});

describe.each(ENGINES)('each operation refuses what it cannot read: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind }, (started) => (t = started));

  it.each(REFUSALS)('%s refuses a bad %s (%s) the same way on every binding', async (operation, param, value) => {
    const reference = await send(t.app, 'httpget', operation, { [param]: value });
    expect(reference).toEqual({
      ok: false,
      code: expect.stringMatching(/^(INVALID_PARAMETER|NOT_FOUND)$/),
      field: param,
      message: expect.any(String),
    });
    expect(reference.message).toMatch(new RegExp(`^${param}: .*'${value}'`));
    for (const binding of BINDINGS) {
      expect(await send(t.app, binding, operation, { [param]: value })).toEqual(carried(binding, reference));
    }
  });

  it.each(EMPTY_FILTERS)(
    '%s takes a %s that names nothing without refusing it, on every binding',
    async (operation, param) => {
      for (const binding of BINDINGS) {
        const outcome: Outcome = await send(t.app, binding, operation, { [param]: NOTHING });
        if (!outcome.ok) {
          throw new Error(
            `${operation} refuses ${param}=${NOTHING} on ${binding} (${outcome.message}): a code that names nothing selects nothing; ` +
              `if ${param} checks its value, give its description in src/services/parameters.ts a value it refuses ('refused')`,
          );
        }
        expect(outcome).toEqual({ ok: true });
      }
    },
  );
});
