/**
 * Runs one operation directly (no binding) on a test database: what the operation tests use.
 * The fields are given with their canonical names; the service layer's case-insensitive matching is
 * covered by the binding suites. Every result is checked against the operation's declaration
 * (src/operations/results.ts): a field the code builds but does not declare, or the reverse, or a
 * value of another type, fails the test that ran it.
 */
import { inspect } from 'node:util';
import type { Engine } from '../../src/db/engine';
import { AppError } from '../../src/errors';
import type { UsersTable } from '../../src/db/schema';
import type { Clock, DomainSettings, Operation, OperationResult, UploadedFile } from '../../src/operations/types';
import { resultMismatches } from './result-check';
import { NO_INPUT_MESSAGE } from '../../src/services/mobile-app';

export const TEST_SETTINGS: DomainSettings = {
  dateOrder: 'DMY',
  fiscalYearStartMonth: 4,
  maxFileBytes: 2 * 1024 * 1024,
  maxFilesPerRequest: 20,
  maxRequestFilesBytes: 20 * 1024 * 1024,
};

/** A clock that stands still at the given instant. */
export function fixedClock(iso: string): Clock {
  const instant = new Date(iso);
  return { now: () => new Date(instant) };
}

export interface TestContextOptions {
  clock?: Clock;
  settings?: Partial<DomainSettings>;
  /** The authenticated user (authentication on); absent = authentication off. */
  principal?: UsersTable;
}

export async function runOperation(
  operation: Operation,
  engine: Engine,
  fields: Record<string, string> = {},
  options: TestContextOptions & { files?: UploadedFile[] } = {},
): Promise<OperationResult> {
  const result = await operation.run(
    { fields, files: options.files ?? [] },
    {
      db: engine.db,
      engine,
      clock: options.clock ?? fixedClock('2026-06-15T10:00:00Z'),
      settings: { ...TEST_SETTINGS, ...options.settings },
      principal: options.principal,
    },
  );
  assertDeclared(operation, result);
  return result;
}

/** A report's rows and totals, what the report tests compare (runOperation, the rest of its result left out). */
export async function runReport(
  operation: Operation,
  engine: Engine,
  fields: Record<string, string> = {},
  options: TestContextOptions = {},
): Promise<Pick<OperationResult, 'data' | 'totals'>> {
  const { data, totals } = await runOperation(operation, engine, fields, options);
  return { data, totals };
}

/** Fails when the result differs from what the operation declares it returns. */
export function assertDeclared(operation: Operation, result: OperationResult): void {
  const noInputWrite = operation.kind === 'write' && result.data === null && result.message === NO_INPUT_MESSAGE;
  const problems = resultMismatches(result, operation.returns, noInputWrite);
  if (problems.length > 0)
    throw new Error(`${operation.name} answered other than it declares:\n  ${problems.slice(0, 10).join('\n  ')}`);
}

/** The business failure (AppError) a call ends in; anything else, success included, fails the test. */
export async function businessFailure(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected a business failure, got ${inspect(error)}`);
}

/** A call that must fail as INVALID_PARAMETER naming `field`, in a message that starts with the field's name. */
export async function expectInvalidParameter(call: Promise<unknown>, field: string): Promise<void> {
  const error = await businessFailure(call);
  expect(error).toMatchObject({ code: 'INVALID_PARAMETER', field });
  expect(error.message.startsWith(field)).toBe(true);
}
