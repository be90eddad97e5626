/**
 * The whole contract checker (src/contract-check) against the real server over real HTTP: every
 * check, legacy and extension, passes with the default settings and with custom namespaces and a
 * base path. The checks are the project's one definition of the wire contract.
 */
import {
  CONTRACT_CHECKS,
  resultLine,
  runContractChecks,
  V2_CHECKS,
  type CheckOptions,
  type CheckReport,
} from '../../src/contract-check';
import { listenTestApp, type ListeningApp } from '../support/listen';

/** The report lines of the failed checks: empty when the server meets the contract. */
function failures(report: CheckReport): string[] {
  return report.results.filter((result) => result.status === 'fail').map(resultLine);
}

describe.each([
  {
    label: 'default settings',
    env: {},
    options: { apiNamespace: 'http://tempuri.org/', syncNamespace: 'http://tempuri.org/', basePath: '' },
  },
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

  const settings = (includeExtensions: boolean): CheckOptions => ({
    baseUrl: server.baseUrl,
    includeExtensions,
    contract: 'legacy',
    ...options,
  });

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

describe('contract-check --v2 against the server (docs/v2.md)', () => {
  let server: ListeningApp;
  beforeAll(async () => {
    server = await listenTestApp({
      env: { API_V2_NAMESPACE: 'urn:contract:v2', BASE_PATH: '/MobileApp' },
      masterData: true,
    });
  });
  afterAll(() => server.stop());

  const v2 = (apiNamespace: string): CheckOptions => ({
    baseUrl: server.baseUrl,
    includeExtensions: true,
    contract: 'v2',
    apiNamespace,
    syncNamespace: 'http://tempuri.org/v2/',
    basePath: '/MobileApp',
  });

  it('passes every v2 check: documents, typed answers on the four bindings, faults', async () => {
    const report = await runContractChecks(v2('urn:contract:v2'));
    expect(failures(report)).toEqual([]);
    expect(report.results).toHaveLength(V2_CHECKS.length);
    expect(
      report.results
        .map((r) => r.binding)
        .sort()
        .filter((b, i, all) => all.indexOf(b) === i),
    ).toEqual(['httpget', 'httppost', 'soap11', 'soap12', 'wsdl']);
  });

  it('fails when the server does not answer the contract it is told (another namespace)', async () => {
    const report = await runContractChecks(v2('urn:some:other'));
    expect(report.failed).toBeGreaterThan(40);
    expect(failures(report)).toContainEqual(
      expect.stringContaining('targetNamespace: expected "urn:some:other", got "urn:contract:v2"'),
    );
  });
});
