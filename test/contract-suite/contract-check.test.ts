/**
 * The whole contract checker (src/contract-check) against the real server over real HTTP: every
 * check, legacy and extension, passes with the default settings and with custom namespaces and a
 * base path. The checks are the project's one definition of the wire contract.
 */
import { CONTRACT_CHECKS, resultLine, runContractChecks, type CheckOptions, type CheckReport } from '../../src/contract-check';
import { listenTestApp, type ListeningApp } from '../support/listen';

/** The report lines of the failed checks: empty when the server meets the contract. */
function failures(report: CheckReport): string[] {
  return report.results.filter((result) => result.status === 'fail').map(resultLine);
}

describe.each([
  { label: 'default settings', env: {}, options: { apiNamespace: 'http://tempuri.org/', syncNamespace: 'http://tempuri.org/', basePath: '' } },
  {
    label: 'custom namespaces and a base path',
    env: { API_NAMESPACE: 'urn:contract:api', SYNC_NAMESPACE: 'http://example.com/sync/', BASE_PATH: '/MobileApp' },
    options: { apiNamespace: 'urn:contract:api', syncNamespace: 'http://example.com/sync/', basePath: '/MobileApp' },
  },
])('the contract checks against the server: $label', ({ env, options }) => {
  let server: ListeningApp;
  beforeAll(async () => {
    server = await listenTestApp({ env });
  });
  afterAll(() => server.stop());

  const settings = (includeExtensions: boolean): CheckOptions => ({ baseUrl: server.baseUrl, includeExtensions, ...options });

  it('passes every check, extensions included', async () => {
    const report = await runContractChecks(settings(true));
    expect(failures(report)).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.results).toHaveLength(CONTRACT_CHECKS.length);
    expect(report.leftOut).toBe(0);
  });

  it('in legacy mode runs exactly the legacy checks, and passes them', async () => {
    const report = await runContractChecks(settings(false));
    expect(failures(report)).toEqual([]);
    expect(report.results.every((result) => !result.extension)).toBe(true);
    expect(report.results.length + report.leftOut).toBe(CONTRACT_CHECKS.length);
    expect(report.leftOut).toBeGreaterThan(0);
  });
});
