/**
 * The contract-check command (src/contract-check/cli.ts, behind scripts/contract-check.ts) against the
 * real server: its lines, its summary, its JSON report and its exit codes.
 */
import { runCli } from '../../src/contract-check/cli';
import { listenTestApp, type ListeningApp } from '../support/listen';

let server: ListeningApp;
beforeAll(async () => {
  server = await listenTestApp();
});
afterAll(() => server.stop());

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

describe('npm run contract-check', () => {
  it('prints a PASS line per check and the summary, and exits 0 when the server meets the contract', async () => {
    const { code, out } = await run([server.baseUrl]);
    const lines = out.trim().split('\n');
    expect(code).toBe(0);
    expect(lines.filter((line) => line.startsWith('PASS ')).length).toBeGreaterThan(100);
    expect(lines.some((line) => line.startsWith('FAIL '))).toBe(false);
    expect(lines.some((line) => line.includes('[extension]'))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(
      /^\d+ checks against http:\/\/127\.0\.0\.1:\d+: \d+ passed, 0 failed; the server meets the contract$/,
    );
  });

  it('in legacy mode leaves the extension checks out and says how many', async () => {
    const { code, out } = await run([server.baseUrl, '--no-extensions']);
    expect(code).toBe(0);
    expect(out).not.toContain('[extension]');
    expect(out).toMatch(/0 failed, \d+ extension checks left out/);
  });

  it('exits 1 and names what differs when the server does not answer as configured (another namespace)', async () => {
    const { code, out } = await run([server.baseUrl, '--api-namespace', 'urn:not-the-servers']);
    expect(code).toBe(1);
    expect(out).toContain('FAIL wsdl.MobileAppWebService.document');
    expect(out).toContain('targetNamespace is http://tempuri.org/, not urn:not-the-servers');
    expect(out).toContain('PASS soap11.SyncCustomers.HelloWorld');
    expect(out).toMatch(/the server does NOT meet the contract\n$/);
  });

  it('writes the whole report as JSON with --json', async () => {
    const { code, out } = await run([server.baseUrl, '--json', '--no-extensions']);
    const report = JSON.parse(out) as {
      failed: number;
      results: { id: string; status: string }[];
      options: { includeExtensions: boolean };
    };
    expect(code).toBe(0);
    expect(report.failed).toBe(0);
    expect(report.options.includeExtensions).toBe(false);
    expect(
      report.results.find((result) => result.id === 'soap12.MobileAppWebService.CreateWarrantyRequest')?.status,
    ).toBe('pass');
  });

  it('exits 2 with the usage for bad arguments, and when no server answers', async () => {
    const usage = await run(['--json']);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('usage: npm run contract-check -- <base-url> [options]');
    const closed = await run(['http://127.0.0.1:1']);
    expect(closed.code).toBe(2);
    expect(closed.err).toContain('no server answers at http://127.0.0.1:1');
    expect(closed.out).toBe('');
  });
});
