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
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { launchBrowser, watch, type Watched } from '../support/browser';
import { ENGINES } from '../support/engines';
import { insertMasterData, warrantyFields } from '../support/fixture';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { givePassword } from '../auth/auth-support';

const MAIN_PATH = '/API/MobileAppWebService.asmx';
const V2_MAIN_PATH = '/API/v2/MobileAppWebService.asmx';

let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(() => browser?.close());

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close().catch(() => undefined);
});

/** Opens a page, watched from its first request, and keeps it to close after the test; `prepare` runs before that request. */
async function open(
  url: string,
  prepare: (page: Page) => Promise<void> = async () => {},
): Promise<{ page: Page; seen: Watched }> {
  const page = await browser.newPage();
  pages.push(page);
  const seen = await watch(page);
  await prepare(page);
  await page.goto(url);
  return { page, seen };
}

/** Clicks Invoke and returns the tab the answer opens in, once its body holds `ready`. */
async function invoke(page: Page, ready: string): Promise<Page> {
  const popup = new Promise<Page | null>((resolve) => page.once('popup', resolve));
  await page.click('form input[type=submit][value=Invoke]');
  const answer = await popup;
  if (!answer) throw new Error('Invoke opened no tab');
  pages.push(answer);
  await answer.waitForFunction(`document.body && document.body.innerText.includes(${JSON.stringify(ready)})`);
  return answer;
}

/** Fills text inputs of the page's form by name, as a user would type them. */
async function fill(page: Page, values: Readonly<Record<string, string>>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await page.locator(`form input[name="${name}"]`).fill(value);
}

const bodyText = async (page: Page) => (await page.evaluate('document.body.innerText')) as string;

/**
 * The page worked within its Content-Security-Policy: nothing refused, no error in its console but the
 * 404 of the /favicon.ico the browser may ask for on its own (this server has none).
 */
function expectWithinPolicy(seen: Watched): void {
  expect(seen.violations).toEqual([]);
  expect(seen.errors.filter((error) => !/ 404 .*\/favicon\.ico\)$/.test(error))).toEqual([]);
}

describe.each(ENGINES)('on %s', (kind) => {
  let server: ListeningApp;

  beforeAll(async () => {
    server = await listenTestApp({ kind, env: { TRUST_PROXY: 'true' }, masterData: true });
  });

  afterAll(() => server?.stop());

  it('an operation page: fill the form, Invoke, see the JSON answer', async () => {
    const { page, seen } = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`);
    expect(await page.evaluate('document.title')).toBe('MobileAppWebService Web Service');
    await fill(page, { SalesOfficer: 'so01', PageSize: '1' });
    const answer = await invoke(page, '"Success"');
    expect(await answer.evaluate('location.href')).toBe(`${server.baseUrl}${MAIN_PATH}/getPCNList`);
    expect(JSON.parse(await bodyText(answer))).toMatchObject({ Success: true, NextPageToken: null });
    expectWithinPolicy(seen);
  });

  it('the policy is in force: an inline style the page does not name is refused, and no other site frames the page', async () => {
    const { page, seen } = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`);
    await page.evaluate(`document.head.insertAdjacentHTML('beforeend', '<style>body { color: red; }</style>'); true`);
    await page.waitForFunction(`getComputedStyle(document.body).color !== 'rgb(255, 0, 0)'`);
    expect(seen.violations).toEqual([expect.stringMatching(/^style-src-elem refused inline/)]);

    // A page of no policy frames it: the frame is left empty (an error page of no origin of its own).
    const framing = await open(`${server.baseUrl}/health`);
    const framed = `new Promise((resolve) => { const frame = document.createElement('iframe'); frame.onload = () => resolve(frame.contentDocument?.title ?? null); frame.src = ${JSON.stringify(`${MAIN_PATH}?op=getPCNList`)}; document.body.append(frame); })`;
    expect(await framing.page.evaluate(framed)).toBeNull();
    expect(framing.seen.errors).toContainEqual(
      expect.stringContaining('violates the following Content Security Policy directive: "frame-ancestors \'none\'"'),
    );
  });

  it('a v2 page answers the typed XML', async () => {
    const { page, seen } = await open(`${server.baseUrl}${V2_MAIN_PATH}?op=getPCNList`);
    await fill(page, { SalesOfficer: 'SO01', PageSize: 'many' });
    const answer = await invoke(page, 'PageSize');
    expect(await answer.evaluate('document.contentType')).toBe('text/xml');
    expect(await bodyText(answer)).toContain('INVALID_PARAMETER');
    expectWithinPolicy(seen);
  });

  it('a warranty request made with its form, then a file sent with the multipart form', async () => {
    const create = await open(`${server.baseUrl}${MAIN_PATH}?op=CreateWarrantyRequest`);
    await fill(create.page, warrantyFields(`browser-${kind}`));
    const created = JSON.parse(await bodyText(await invoke(create.page, '"Success"'))) as {
      Success: boolean;
      Data: { RequestNo: string };
    };
    expect(created.Success).toBe(true);

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'form-')), 'receipt.pdf');
    fs.writeFileSync(file, '%PDF-1.4\n% a receipt\n');
    const files = await open(`${server.baseUrl}${MAIN_PATH}?op=WarrantyRequestFiles`);
    await fill(files.page, { RequestNo: created.Data.RequestNo });
    const input = await files.page.$('form input[type=file]');
    await input?.uploadFile(file);
    const stored = JSON.parse(await bodyText(await invoke(files.page, '"Success"'))) as {
      Success: boolean;
      Message: string;
      Data: { FileName: string }[];
    };
    expect(stored).toMatchObject({
      Success: true,
      Message: `1 file(s) stored for warranty request ${created.Data.RequestNo}.`,
    });
    expect(stored.Data.map((f) => f.FileName)).toEqual(['receipt.pdf']);
    expectWithinPolicy(create.seen);
    expectWithinPolicy(files.seen);
    fs.rmSync(path.dirname(file), { recursive: true });
  });

  it('/API/docs shows the operations once its scripts ran, every asset from this server', async () => {
    const { page, seen } = await open(`${server.baseUrl}/API/docs`);
    await page.waitForSelector('.opblock');
    const paths = (await page.evaluate(
      `[...document.querySelectorAll('.opblock-summary-path')].map((e) => e.innerText.trim())`,
    )) as string[];
    expect(paths).toContain(`${MAIN_PATH}/getPCNList`);
    expect(paths).toContain('/API/SyncCustomers.asmx/HelloWorld');
    expect(seen.requested.length).toBeGreaterThan(3);
    expect(seen.requested.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !url.startsWith('data:'))).toEqual(
      [],
    );
    expectWithinPolicy(seen);
  });

  it('/API/docs: an operation tried out from the page is called and answered', async () => {
    const { page, seen } = await open(`${server.baseUrl}/API/docs`);
    const block = '#operations-MobileAppWebService-FillAreaManagers';
    await page.locator(`${block} .opblock-summary-control`).click();
    await page.locator(`${block} .try-out__btn`).click();
    await page.locator(`${block} .execute`).click();
    const status = `${block} .live-responses-table tr.response .response-col_status`;
    await page.waitForSelector(status);
    expect(await page.evaluate(`document.querySelector(${JSON.stringify(status)}).innerText.trim()`)).toBe('200');
    expectWithinPolicy(seen);
  });

  it('a client the proxy names as remote gets no form', async () => {
    const { page } = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`, (tab) =>
      tab.setExtraHTTPHeaders({ 'X-Forwarded-For': '203.0.113.7' }),
    );
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
    const { page, seen } = await open(`${server.baseUrl}${MAIN_PATH}?op=getPCNList`);
    await fill(page, { SalesOfficer: 'SO01' });
    const challenges = await answerChallenges('so.one', 'correct horse');
    try {
      const answer = await invoke(page, '"Success"');
      expect(JSON.parse(await bodyText(answer))).toMatchObject({ Success: true });
    } finally {
      await challenges.detach();
    }
    expectWithinPolicy(seen);
  });
});

/**
 * Answers a server's challenge (401 with WWW-Authenticate) with these credentials, as a user typing them
 * into the browser's prompt, until the session returned is detached. Browser-wide, because the answer's
 * tab asks before puppeteer hands it over; Page.authenticate on it would come too late.
 */
async function answerChallenges(username: string, password: string): Promise<CDPSession> {
  const session = await browser.target().createCDPSession();
  session.on(
    'Fetch.requestPaused',
    ({ requestId }) => void session.send('Fetch.continueRequest', { requestId }).catch(() => undefined),
  );
  session.on('Fetch.authRequired', ({ requestId }) => {
    void session
      .send('Fetch.continueWithAuth', {
        requestId,
        authChallengeResponse: { response: 'ProvideCredentials', username, password },
      })
      .catch(() => undefined);
  });
  await session.send('Fetch.enable', { handleAuthRequests: true });
  return session;
}
