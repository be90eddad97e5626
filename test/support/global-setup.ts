/**
 * Runs once before the suites. It says which suites the run leaves out and why, so a green run on
 * a machine without PostgreSQL is never mistaken for a run that covered it.
 */
import { leftOutSuites } from './optional-suites';
import { newTestRunId } from './engines';
import { unsupportedNode } from '../../src/process/node-version';

export default function globalSetup(): void {
  // On an older Node the SQLite driver crashes the test processes instead of failing a test.
  const oldNode = unsupportedNode();
  if (oldNode !== undefined) throw new Error(oldNode);
  // The workers inherit it: every PostgreSQL schema of this run carries it (engines.ts).
  process.env.TEST_RUN_ID = newTestRunId();
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\n[left out] PostgreSQL runs of the database and operation suites: TEST_DATABASE_URL is not set ' +
        '(.ci/run sets it to postgres://postgres@127.0.0.1:5432/test). Only SQLite is tested in this run.\n',
    );
  }
  // jest.config.js leaves these out on the same checks.
  for (const suite of leftOutSuites())
    process.stdout.write(`[left out] ${suite.file} (${suite.what}): ${suite.missing}\n`);
}
