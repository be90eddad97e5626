/**
 * What an operation's help page adds to the legacy samples (docs/operations.md, "Help pages";
 * docs/integrators.md): the test form, for the local machine only unless HELP_TEST_FORMS says
 * otherwise, with the client address the rest of the server uses (TRUST_PROXY); each parameter with
 * what it accepts; and the OpenAPI viewer at /API/docs with its assets served here, public with
 * authentication on. test/browser/help-pages.test.ts drives the same pages in a browser.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/app';
import { MAIN_PATH, SYNC_PATH } from '../support/interface-table';
import { mainServiceOperations } from '../../src/services/registry';

const V2_MAIN_PATH = '/API/v2/MobileAppWebService.asmx';
const LOCAL_ONLY = 'The test form is only available for requests from the local machine.';

let local: TestApp;
let proxied: TestApp;
let everyone: TestApp;
let off: TestApp;
let mdy: TestApp;

beforeAll(async () => {
  local = await startTestApp({ env: { AUTH_MODE: 'basic' } });
  proxied = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  everyone = await startTestApp({ env: { TRUST_PROXY: 'true', HELP_TEST_FORMS: 'all' } });
  off = await startTestApp({ env: { HELP_TEST_FORMS: 'off' } });
  mdy = await startTestApp({ env: { DATE_ORDER: 'MDY', BASE_PATH: '/M' } });
});

afterAll(async () => {
  for (const t of [local, proxied, everyone, off, mdy]) await t?.close();
});

/** The test form's action and the names of its inputs, in order; undefined without a form. */
function testForm(
  html: string,
): { action: string; enctype: string | undefined; inputs: string[]; files: boolean } | undefined {
  const form = /<form target="_blank" action="([^"]*)" method="POST"(?: enctype="([^"]*)")?>([\s\S]*?)<\/form>/.exec(
    html,
  );
  if (!form) return undefined;
  return {
    action: form[1],
    enctype: form[2],
    inputs: [...form[3].matchAll(/<input class="frmInput" type="text" size="50" name="([^"]*)">/g)].map((m) => m[1]),
    files: form[3].includes('type="file"'),
  };
}

describe('the test form', () => {
  it('is on every operation page of both services and both contracts for a local request, one input per name read', async () => {
    for (const path of [MAIN_PATH, SYNC_PATH, V2_MAIN_PATH, '/API/v2/SyncCustomers.asmx']) {
      const list = await request(local.app).get(path);
      const names = [...list.text.matchAll(/<a href="\?op=([^"]+)">/g)].map((m) => decodeURIComponent(m[1]));
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const res = await request(local.app).get(`${path}?op=${name}`);
        const form = testForm(res.text);
        const op = mainServiceOperations.find((o) => o.name === name);
        expect(form?.action).toBe(`${path}/${name}`);
        if (op) expect(form?.inputs).toEqual([...op.params, ...op.fields]);
        expect(res.text).toContain('<input type="submit" value="Invoke" class="button">');
        expect(res.text).not.toContain(LOCAL_ONLY);
      }
    }
  });

  it('lists the extra fields beside the contract parameters', async () => {
    const res = await request(local.app).get(`${MAIN_PATH}?op=getPCNList`);
    expect(testForm(res.text)?.inputs).toEqual(expect.arrayContaining(['SalesOfficer', 'PageSize', 'PageToken']));
  });

  it('sends files as multipart for an operation that takes them', async () => {
    const res = await request(local.app).get(`${MAIN_PATH}?op=WarrantyRequestFiles`);
    expect(testForm(res.text)).toEqual({
      action: `${MAIN_PATH}/WarrantyRequestFiles`,
      enctype: 'multipart/form-data',
      inputs: ['RequestNo', 'FileName', 'FileContent'],
      files: true,
    });
    const other = await request(local.app).get(`${MAIN_PATH}?op=getPCNList`);
    expect(testForm(other.text)).toMatchObject({ enctype: undefined, files: false });
  });

  it('is the legacy sentence for a remote client, the one TRUST_PROXY names', async () => {
    const remote = await request(proxied.app)
      .get(`${MAIN_PATH}?op=getPCNList`)
      .set('X-Forwarded-For', '127.0.0.1, 203.0.113.7');
    expect(remote.status).toBe(200);
    expect(testForm(remote.text)).toBeUndefined();
    expect(remote.text).toContain(`<h3>Test</h3>\n    <p>${LOCAL_ONLY}</p>`);
    const viaLocalProxy = await request(proxied.app)
      .get(`${MAIN_PATH}?op=getPCNList`)
      .set('X-Forwarded-For', '203.0.113.7, 127.0.0.1');
    expect(testForm(viaLocalProxy.text)).toBeDefined();
  });

  it('without TRUST_PROXY, X-Forwarded-For does not make a request remote', async () => {
    const res = await request(local.app).get(`${MAIN_PATH}?op=getPCNList`).set('X-Forwarded-For', '203.0.113.7');
    expect(testForm(res.text)).toBeDefined();
  });

  it('HELP_TEST_FORMS=all shows it to every client, off to none', async () => {
    const all = await request(everyone.app).get(`${MAIN_PATH}?op=getPCNList`).set('X-Forwarded-For', '203.0.113.7');
    expect(testForm(all.text)).toBeDefined();
    const none = await request(off.app).get(`${MAIN_PATH}?op=getPCNList`);
    expect(testForm(none.text)).toBeUndefined();
    expect(none.text).not.toContain('<h3>Test</h3>');
  });

  it('posts under the base path', async () => {
    const res = await request(mdy.app).get(`/M${MAIN_PATH}?op=getPCNList`);
    expect(testForm(res.text)?.action).toBe(`/M${MAIN_PATH}/getPCNList`);
  });
});

describe('each parameter', () => {
  /** The table's cells of one parameter: name, type, what it accepts, what it means. */
  function row(html: string, name: string): string[] {
    const match = new RegExp(`<tr><td>${name}</td>(.*?)</tr>`).exec(html);
    return match ? [name, ...[...match[1].matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1])] : [];
  }

  it('says what it accepts: dates, lists, sort fields and directions, words, numbers', async () => {
    const { text } = await request(local.app).get(`${MAIN_PATH}?op=getSalesSummaryRecords`);
    expect(row(text, 'FromDate')[2]).toBe(
      'A date: yyyy-MM-dd, dd/MM/yyyy, dd-MM-yyyy, dd.MM.yyyy, dd-MMM-yyyy or dd MMM yyyy; a time after yyyy-MM-dd is ignored',
    );
    expect(row(text, 'Zones')[2]).toMatch(/^Codes separated by commas, in any case, .*empty or ALL: no filter$/);
    expect(row(text, 'SortBy')[2]).toBe(
      'One of CustomerCode, CustomerName, StateCode, ZoneCode, SalesOfficer, InvoiceCount, Quantity, Value, in any case; default CustomerCode',
    );
    expect(row(text, 'SortDirection')[2]).toBe('One of ASC, DESC, in any case');
    expect(row(text, 'SortDirection')[3]).toContain('default ASC');
    expect(row(text, 'SalesOfficer')[1]).toBe('string');
    const pcn = await request(local.app).get(`${MAIN_PATH}?op=getPCNList`);
    expect(row(pcn.text, 'PageSize')[2]).toBe('A whole number from 1 to 5000');
  });

  it('marks the extensions of the legacy contract, not the v2 contract that lists them', async () => {
    const legacy = await request(local.app).get(`${MAIN_PATH}?op=getPCNList`);
    expect(row(legacy.text, 'PageSize')[3]).toContain('Not in the legacy contract');
    expect(row(legacy.text, 'SalesOfficer')[3]).not.toContain('Not in the legacy contract');
    const v2 = await request(local.app).get(`${V2_MAIN_PATH}?op=getPCNList`);
    expect(row(v2.text, 'PageSize')[3]).not.toContain('Not in the legacy contract');
  });

  it('names the date forms DATE_ORDER reads', async () => {
    const { text } = await request(mdy.app).get(`/M${MAIN_PATH}?op=getSalesSummaryRecords`);
    expect(row(text, 'FromDate')[2]).toContain('yyyy-MM-dd, MM/dd/yyyy,');
  });
});

describe('/API/docs', () => {
  it('is Swagger UI, public with authentication on, every asset from this server', async () => {
    const page = await request(local.app).get('/API/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(assets).toEqual([
      '/API/docs/swagger-ui.css',
      '/API/docs/favicon-32x32.png',
      '/API/docs/swagger-ui-bundle.js',
      '/API/docs/init.js',
    ]);
    expect(page.text).toContain('data-url="/API/openapi.json"');
    for (const asset of assets) {
      const res = await request(local.app).get(asset);
      expect([asset, res.status]).toEqual([asset, 200]);
    }
    expect((await request(local.app).get('/API/docs/swagger-ui.css')).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
  });

  it('follows the base path, and serves no other file of the package', async () => {
    const page = await request(mdy.app).get('/M/API/docs');
    expect(page.text).toContain('data-url="/M/API/openapi.json"');
    expect(page.text).toContain('src="/M/API/docs/swagger-ui-bundle.js"');
    expect((await request(mdy.app).get('/M/API/docs/package.json')).status).toBe(404);
    expect((await request(mdy.app).get('/M/API/docs/..%2Fpackage.json')).status).toBe(404);
  });
});
