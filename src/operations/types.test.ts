/**
 * Typed operation declarations (types.ts, parse.ts Fields): an operation's code receives exactly the
 * names it declared. A misspelt or undeclared name, or a table the schema lacks, is a compile error,
 * which the `@ts-expect-error` lines below assert: `npm test` type-checks this file first, and an
 * expected error that no longer occurs fails that check.
 */
import { createMobileAppService } from '../services/mobile-app';
import { text, type Fields } from './parse';
import { field, record, recordType } from './results';
import { AppError, invalid } from '../errors';
import { readOperation, writeOperation, type Operation, type OperationContext } from './types';

const context = {} as OperationContext;

/** Reads the officer the way a shared helper does: only operations that declare SalesOfficer may call it. */
function officerOf(fields: Fields<'SalesOfficer'>): string | undefined {
  return text(fields, 'SalesOfficer');
}

const probe = readOperation({
  name: 'Probe',
  reads: ['pcn', 'customers'],
  params: ['SalesOfficer', 'FromDate'],
  fields: ['PageSize'],
  acceptsFiles: false,
  returns: record(recordType('Plan', { officer: field.string, from: field.string, pageSize: field.string })),
  prepare({ fields }) {
    // @ts-expect-error 'SalesOfficr' is not a declared name
    text(fields, 'SalesOfficr');
    // @ts-expect-error 'ToDate' belongs to other operations, not to this one
    text(fields, 'ToDate');
    return { officer: officerOf(fields), from: text(fields, 'FromDate'), pageSize: fields.PageSize };
  },
  read: (plan) => Promise.resolve({ data: [plan] }),
});

const write = writeOperation({
  name: 'ProbeWrite',
  params: [],
  fields: ['RequestNo'],
  acceptsFiles: false,
  returns: record(recordType('Request', { requestNo: field.string })),
  run({ fields }) {
    // @ts-expect-error a helper reading SalesOfficer cannot be handed the fields of an operation that does not declare it
    officerOf(fields);
    return Promise.resolve({ data: { requestNo: text(fields, 'RequestNo') ?? null } });
  },
});

readOperation({
  name: 'ProbeTables',
  // @ts-expect-error 'pcns' is no table of the schema: the tables a read declares are the schema's
  reads: ['pcns'],
  params: [],
  fields: [],
  acceptsFiles: false,
  returns: record(recordType('Nothing', {})),
  prepare: () => undefined,
  read: () => Promise.resolve({ data: null }),
});

/** A plan holding a Date: the answer cache could not key it (planKey), so no list of operations takes it. */
const datedPlan = readOperation({
  name: 'ProbeDated',
  reads: ['customers'],
  params: [],
  fields: ['FromDate'],
  returns: record(recordType('Nothing', {})),
  prepare: ({ fields }) => ({ from: new Date(text(fields, 'FromDate') ?? 0) }),
  read: () => Promise.resolve({ data: null }),
});
// @ts-expect-error planIsNotPlainData: the plan holds a Date
export const refusedPlans: readonly Operation[] = [datedPlan];

/** A check raised in read: legacy SOAP, which runs only prepare, would let it pass. */
const checkInRead = readOperation({
  name: 'ProbeCheckInRead',
  reads: ['customers'],
  params: ['SalesOfficer'],
  fields: [],
  returns: record(recordType('Nothing', {})),
  prepare: ({ fields }) => ({ officer: text(fields, 'SalesOfficer') ?? '' }),
  read: ({ officer }) => Promise.reject(invalid('SalesOfficer', `'${officer}' is not an officer`)),
});

describe('typed operation declarations', () => {
  it("make a business failure raised in read the server's error, saying to move the check to prepare", async () => {
    const service = createMobileAppService({ namespace: 'http://tempuri.org/', context, operations: [checkInRead] });
    const outcome = service.invoke('ProbeCheckInRead', { values: [['SalesOfficer', 'SO7']], files: [] });
    await expect(outcome).rejects.toThrow(
      "ProbeCheckInRead raised INVALID_PARAMETER (SalesOfficer: 'SO7' is not an officer) in read, which legacy SOAP never runs: " +
        'move the check to prepare, so that every binding refuses it (src/operations/types.ts, ReadDefinition)',
    );
    await expect(outcome).rejects.not.toBeInstanceOf(AppError);
  });

  it('hand the code the declared names, sent values trimmed by the readers and absent ones undefined', async () => {
    const service = createMobileAppService({ namespace: 'http://tempuri.org/', context, operations: [probe, write] });
    const read = await service.invoke('Probe', {
      values: [
        ['salesofficer', ' SO7 '],
        ['pagesize', '20'],
        ['Unknown', 'x'],
      ],
      files: [],
    });
    expect(read).toEqual({ kind: 'result', result: { data: [{ officer: 'SO7', from: undefined, pageSize: '20' }] } });
    const written = await service.invoke('ProbeWrite', { values: [['REQUESTNO', 'WR1']], files: [] });
    expect(written).toEqual({ kind: 'result', result: { data: { requestNo: 'WR1' } } });
  });

  it('keep the declared names as the operation lists them, for the WSDL check and the help pages', () => {
    expect([probe.params, probe.fields, probe.reads]).toEqual([
      ['SalesOfficer', 'FromDate'],
      ['PageSize'],
      ['pcn', 'customers'],
    ]);
    expect([write.kind, write.fields]).toEqual(['write', ['RequestNo']]);
  });
});
