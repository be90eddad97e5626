/**
 * The pages developers read, in a real browser (headless Chromium, test/support/browser.ts), against
 * the real server listening on 127.0.0.1 on each engine: an operation's help page, its test form filled
 * and invoked (the answer as the binding gives it: JSON, XML on the v2 pages, files sent as multipart,
 * Basic credentials asked for by the server); /API/docs showing the operations once its scripts ran,
 * with nothing loaded from elsewhere, and calling one with "Try it out"; and no form for a client the
 * trusted proxy names as remote. Every page does all that within its Content-Security-Policy (no
 * violation reported, no console error), and that policy is in force (an inline style it does not name
 * is refused; a page framing it gets nothing).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Browser, type Tab } from '../support/browser';
import { ENGINES } from '../support/engines';
import { insertMasterData, warrantyFields } from '../support/fixture';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { givePassword } from '../auth/auth-support';

const MAIN_PATH = '/API/MobileAppWebService.asmx';
const V2_MAIN_PATH = '/API/v2/MobileAppWebService.asmx';

let browser: Browser;
const tabs: Tab[] = [];

beforeAll(async () => {
  browser = await Browser.launch();
});

afterAll(() => browser?.close());

afterEach(async () => {
  for (const tab of tabs.splice(0)) await tab.send('Page.close').catch(() => undefined);
});

/** Opens a page and keeps its tab to close after the test. */
async function open(url: string, prepare?: (tab: Tab) => Promise<void>): Promise<Tab> {
  const tab = await browser.open(url, prepare);
  tabs.push(tab);
  return tab;
}

/** Clicks Invoke and returns the tab the answer opens in, once its body holds `ready`. */
async function invoke(page: Tab, ready: string, prepare?: (tab: Tab) => Promise<void>): Promise<Tab> {
  const answer = browser.nextTab(`document.body && document.body.innerText.includes(${JSON.stringify(ready)})`, prepare);
  await page.evaluate(`document.querySelector('form input[type=submit][value=Invoke]').click()`);
  const tab = await answer;
  tabs.push(tab);
  return tab;
}

const bodyText = (tab: Tab) => tab.evaluate<string>('document.body.innerText');

/**
 * The page worked within its Content-Security-Policy: nothing refused, no error in its console but the
 * 404 of the /favicon.ico the browser may ask for on its own (this server has none).
 */
function expectWithinPolicy(tab: Tab): void {
  expect(tab.violations).toEqual([]);
  expect(tab.errors.filter((error) => !/ 404 .*\/favicon\.ico\)$/.test(error))).toEqual([]);
}

describe.each(ENGINES)('on %s', (kind) => {
  let server: ListeningApp;

  beforeAll(async () => {
    server = await listenTestApp({ kind, env: { TRUST_PROXY: 'true' }, masterData: true });
  });

  afterAll(() => server?.stop());

  it('an operation page: fill the form, Invoke, see the JSON answer', async () => {
    const page = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`);
    expect(await page.evaluate('document.title')).toBe('MobileAppWebService Web Service');
    await page.fill({ SalesOfficer: 'so01', PageSize: '1' });
    const answer = await invoke(page, '"Success"');
    expect(await answer.evaluate('location.href')).toBe(`${server.baseUrl}${MAIN_PATH}/getPCNList`);
    expect(JSON.parse(await bodyText(answer))).toMatchObject({ Success: true, NextPageToken: null });
    expectWithinPolicy(page);
  });

  it('the policy is in force: an inline style the page does not name is refused, and no other site frames the page', async () => {
    const page = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`);
    await page.evaluate(`document.head.insertAdjacentHTML('beforeend', '<style>body { color: red; }</style>'); true`);
    await page.waitFor(`getComputedStyle(document.body).color !== 'rgb(255, 0, 0)'`);
    expect(page.violations).toEqual([expect.stringMatching(/^style-src-elem refused inline/)]);

    // A page of no policy frames it: the frame is left empty (an error page of no origin of its own).
    const framing = await open(`${server.baseUrl}/health`);
    const framed = `new Promise((resolve) => { const frame = document.createElement('iframe'); frame.onload = () => resolve(frame.contentDocument?.title ?? null); frame.src = ${JSON.stringify(`${MAIN_PATH}?op=getPCNList`)}; document.body.append(frame); })`;
    expect(await framing.evaluate(framed)).toBeNull();
    expect(framing.errors).toContainEqual(expect.stringContaining("violates the following Content Security Policy directive: \"frame-ancestors 'none'\""));
  });

  it('a v2 page answers the typed XML', async () => {
    const page = await open(`${server.baseUrl}${V2_MAIN_PATH}?op=getPCNList`);
    await page.fill({ SalesOfficer: 'SO01', PageSize: 'many' });
    const answer = await invoke(page, 'PageSize');
    expect(await answer.evaluate('document.contentType')).toBe('text/xml');
    expect(await bodyText(answer)).toContain('INVALID_PARAMETER');
    expectWithinPolicy(page);
  });

  it('a warranty request made with its form, then a file sent with the multipart form', async () => {
    const create = await open(`${server.baseUrl}${MAIN_PATH}?op=CreateWarrantyRequest`);
    await create.fill(warrantyFields(`browser-${kind}`));
    const created = JSON.parse(await bodyText(await invoke(create, '"Success"'))) as { Success: boolean; Data: { RequestNo: string } };
    expect(created.Success).toBe(true);

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'form-')), 'receipt.pdf');
    fs.writeFileSync(file, '%PDF-1.4\n% a receipt\n');
    const files = await open(`${server.baseUrl}${MAIN_PATH}?op=WarrantyRequestFiles`);
    await files.fill({ RequestNo: created.Data.RequestNo });
    await files.setFiles('form input[type=file]', [file]);
    const stored = JSON.parse(await bodyText(await invoke(files, '"Success"'))) as { Success: boolean; Message: string; Data: { FileName: string }[] };
    expect(stored).toMatchObject({ Success: true, Message: `1 file(s) stored for warranty request ${created.Data.RequestNo}.` });
    expect(stored.Data.map((f) => f.FileName)).toEqual(['receipt.pdf']);
    expectWithinPolicy(create);
    expectWithinPolicy(files);
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it('/API/docs shows the operations once its scripts ran, every asset from this server', async () => {
    const page = await open(`${server.baseUrl}/API/docs`);
    await page.waitFor(`document.querySelectorAll('.opblock').length > 0`);
    const paths = await page.evaluate<string[]>(`[...document.querySelectorAll('.opblock-summary-path')].map((e) => e.innerText.trim())`);
    expect(paths).toContain(`${MAIN_PATH}/getPCNList`);
    expect(paths).toContain('/API/SyncCustomers.asmx/HelloWorld');
    expect(page.requested.length).toBeGreaterThan(3);
    expect(page.requested.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !url.startsWith('data:'))).toEqual([]);
    expectWithinPolicy(page);
  });

  it('/API/docs: an operation tried out from the page is called and answered', async () => {
    const page = await open(`${server.baseUrl}/API/docs`);
    const block = `document.getElementById('operations-MobileAppWebService-FillAreaManagers')`;
    await page.waitFor(block);
    await page.evaluate(`${block}.querySelector('.opblock-summary-control').click()`);
    await page.waitFor(`${block}.querySelector('.try-out__btn')`);
    await page.evaluate(`${block}.querySelector('.try-out__btn').click()`);
    await page.waitFor(`${block}.querySelector('.execute')`);
    await page.evaluate(`${block}.querySelector('.execute').click()`);
    await page.waitFor(`${block}.querySelector('.live-responses-table tr.response .response-col_status')`);
    expect(await page.evaluate(`${block}.querySelector('.live-responses-table tr.response .response-col_status').innerText.trim()`)).toBe('200');
    expectWithinPolicy(page);
  });

  it('a client the proxy names as remote gets no form', async () => {
    const page = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`, (tab) => tab.send('Network.setExtraHTTPHeaders', { headers: { 'X-Forwarded-For': '203.0.113.7' } }).then(() => undefined));
    expect(await page.evaluate('document.forms.length')).toBe(0);
    expect(await bodyText(page)).toContain('The test form is only available for requests from the local machine.');
  });
});

describe('with authentication on', () => {
  let server: ListeningApp;

  beforeAll(async () => {
    server = await listenTestApp({ env: { AUTH_MODE: 'basic' } });
    await insertMasterData(server.engine.db);
    await givePassword(server, 'so.one', 'correct horse');
  });

  afterAll(() => server?.stop());

  it('the page is public and Invoke sends the credentials the browser is asked for', async () => {
    const page = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`);
    await page.fill({ SalesOfficer: 'SO01' });
    const answer = await invoke(page, '"Success"', (tab) => tab.answerChallenges('so.one', 'correct horse'));
    expect(JSON.parse(await bodyText(answer))).toMatchObject({ Success: true });
    expectWithinPolicy(page);
  });
});
