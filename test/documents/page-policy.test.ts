/**
 * The Content-Security-Policy of the pages a browser renders (src/asmx/page-policy.ts; docs/behaviour.md,
 * "Headers of every answer"): the help pages, an operation's page with or without its test form, the
 * error page of an unknown operation and /API/docs each allow exactly what they load, and no site may
 * frame them. test/browser/help-pages.test.ts checks in Chromium that the pages work within it.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/app';
import { MAIN_PATH, SYNC_PATH } from '../support/interface-table';

const V2_MAIN_PATH = '/API/v2/MobileAppWebService.asmx';

let plain: TestApp;
let published: TestApp;

beforeAll(async () => {
  plain = await startTestApp({ env: { AUTH_MODE: 'basic' } });
  published = await startTestApp({ env: { PUBLIC_URL: 'https://api.example.com/mobile', BASE_PATH: '/M' } });
});

afterAll(async () => {
  for (const t of [plain, published]) await t?.close();
});

/** The policy's directives by name. */
function directives(policy: string | undefined): Record<string, string> {
  expect(policy).toBeDefined();
  return Object.fromEntries(
    policy!.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name, sources.join(' ')];
    }),
  );
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('a help page', () => {
  it.each([
    ['the list of operations', `${MAIN_PATH}`, 200],
    ['the SyncCustomers list', `${SYNC_PATH}`, 200],
    ['an operation with its test form', `${MAIN_PATH}?op=CreateWarrantyRequest`, 200],
    ['a v2 operation', `${V2_MAIN_PATH}?op=getPCNList`, 200],
    ['an unknown operation', `${MAIN_PATH}?op=NoSuchOperation`, 500],
  ])('%s allows its one inline style by its hash, and forms posting to this server', async (_label, path, status) => {
    const page = await request(plain.app).get(path);
    expect(page.status).toBe(status);
    const styles = [...page.text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    expect(styles).toHaveLength(1);
    expect(page.text).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    expect(directives(page.headers['content-security-policy'])).toEqual({
      'default-src': "'none'",
      'style-src': sha256(styles[0]),
      'form-action': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it('the test form posts to a path of this server, so form-action self holds behind PUBLIC_URL too', async () => {
    const page = await request(published.app).get(`/M${MAIN_PATH}?op=getPCNList`);
    expect(page.text).toContain('action="/mobile/M/API/MobileAppWebService.asmx/getPCNList"');
    expect(directives(page.headers['content-security-policy'])['form-action']).toBe("'self'");
  });
});

describe('/API/docs', () => {
  it('allows its own files and the icons its stylesheet holds, nothing inline', async () => {
    const page = await request(plain.app).get('/API/docs');
    expect(page.text).not.toMatch(/<style|<script>|\sstyle=|\son[a-z]+=/i);
    expect(
      [...page.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]).every((url) => url.startsWith('/')),
    ).toBe(true);
    expect(directives(page.headers['content-security-policy'])).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
    });
  });

  it('lets "Try it out" call the PUBLIC_URL the document names as its server', async () => {
    const page = await request(published.app).get('/M/API/docs');
    expect(directives(page.headers['content-security-policy'])['connect-src']).toBe("'self' https://api.example.com");
    const document = (await request(published.app).get('/M/API/openapi.json')).body as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: 'https://api.example.com/mobile/M' }]);
  });
});
