/**
 * Where the documents' addresses come from and how long they may be kept (docs/operations.md,
 * "PUBLIC_URL"; docs/contract.md, "WSDL"): with TRUST_PROXY the forwarded entries the nearest proxy
 * added (the last of each chain), never the client's; with PUBLIC_URL that address alone, whatever the
 * Host and forwarded headers say, in every document (WSDL, disco, help pages, OpenAPI servers); and
 * every document answered `Cache-Control: private, max-age=0` as the legacy server's were, so no
 * shared cache keeps one for other clients.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/app';
import { MAIN_PATH, SYNC_PATH } from '../support/interface-table';

const V2_MAIN_PATH = '/API/v2/MobileAppWebService.asmx';

/** Every address a WSDL document holds (soap:address, soap12:address, http:address). */
function wsdlAddresses(text: string): string[] {
  return [...text.matchAll(/<(?:soap|soap12|http):address location="([^"]*)"/g)].map((m) => m[1]);
}

/** Every address a disco document holds. */
function discoAddresses(text: string): string[] {
  return [...text.matchAll(/(?:ref|docRef|address)="([^"]*)"/g)].map((m) => m[1]);
}

/** The Host lines and the request lines of an operation page's samples. */
function sampleLines(text: string): { hosts: string[]; paths: string[] } {
  return {
    hosts: [...new Set([...text.matchAll(/Host: ([^\n<]*)/g)].map((m) => m[1]))],
    paths: [...new Set([...text.matchAll(/(?:GET|POST) (\/[^ ?]*)/g)].map((m) => m[1].replace(/\/getPCNList$/, '')))],
  };
}

describe('TRUST_PROXY: the entries the nearest proxy added', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  const proxied = (path: string) =>
    request(t.app)
      .get(path)
      .set('Host', 'internal:8080')
      .set('X-Forwarded-Host', 'attacker.example, lb.internal')
      .set('X-Forwarded-Proto', 'http, https');

  it.each([MAIN_PATH, SYNC_PATH, V2_MAIN_PATH])('%s?wsdl names lb.internal in every address', async (path) => {
    const res = await proxied(`${path}?wsdl`).expect(200);
    expect(wsdlAddresses(res.text)).toEqual(Array(4).fill(`https://lb.internal${path}`));
    expect(res.text).not.toContain('attacker');
  });

  it('?disco too', async () => {
    const res = await proxied(`${MAIN_PATH}?disco`).expect(200);
    expect(discoAddresses(res.text)).toEqual([
      `https://lb.internal${MAIN_PATH}?wsdl`,
      `https://lb.internal${MAIN_PATH}`,
      `https://lb.internal${MAIN_PATH}`,
      `https://lb.internal${MAIN_PATH}`,
    ]);
  });

  it('and the samples of an operation page', async () => {
    const res = await proxied(`${MAIN_PATH}?op=getPCNList`).expect(200);
    expect(sampleLines(res.text)).toEqual({ hosts: ['lb.internal'], paths: [MAIN_PATH] });
    expect(res.text).not.toContain('attacker');
  });

  it('a last entry that is not a host name falls back to the Host header', async () => {
    const res = await request(t.app)
      .get(`${MAIN_PATH}?wsdl`)
      .set('Host', 'internal:8080')
      .set('X-Forwarded-Host', 'lb.internal, bad"host');
    expect(wsdlAddresses(res.text)).toEqual(Array(4).fill(`http://internal:8080${MAIN_PATH}`));
  });
});

describe('PUBLIC_URL: the only source of addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { PUBLIC_URL: 'https://api.example.com/mobile/', TRUST_PROXY: 'true', BASE_PATH: '/M' },
    });
  });
  afterAll(() => t.close());

  const ROOT = 'https://api.example.com/mobile/M';
  const asked = (path: string) =>
    request(t.app)
      .get(`/M${path}`)
      .set('Host', 'internal:8080')
      .set('X-Forwarded-Host', 'lb.internal')
      .set('X-Forwarded-Proto', 'http');

  it.each([MAIN_PATH, SYNC_PATH, V2_MAIN_PATH])(
    '%s?wsdl: PUBLIC_URL, then BASE_PATH, whatever Host and X-Forwarded-* say',
    async (path) => {
      const res = await asked(`${path}?wsdl`).expect(200);
      expect(wsdlAddresses(res.text)).toEqual(Array(4).fill(`${ROOT}${path}`));
    },
  );

  it('?disco', async () => {
    const res = await asked(`${SYNC_PATH}?disco`).expect(200);
    expect(new Set(discoAddresses(res.text))).toEqual(new Set([`${ROOT}${SYNC_PATH}?wsdl`, `${ROOT}${SYNC_PATH}`]));
  });

  it('the samples of an operation page: its host and its path', async () => {
    const res = await asked(`${MAIN_PATH}?op=getPCNList`).expect(200);
    expect(sampleLines(res.text)).toEqual({ hosts: ['api.example.com'], paths: [`/mobile/M${MAIN_PATH}`] });
  });

  it('the OpenAPI document names it as its server', async () => {
    const res = await asked('/API/openapi.json').expect(200);
    expect((res.body as { servers: unknown }).servers).toEqual([{ url: ROOT }]);
  });
});

describe('Cache-Control of the documents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { BASE_PATH: '/M' } });
  });
  afterAll(() => t.close());

  const documents = [MAIN_PATH, SYNC_PATH, V2_MAIN_PATH].flatMap((path) =>
    [`${path}?wsdl`, `${path}?WSDL`, `${path}?disco`, path, `${path}?op=HelloWorld`].map((url) => `/M${url}`),
  );

  it.each([
    ...documents.filter((url) => !url.includes('MobileAppWebService.asmx?op=')),
    `/M${MAIN_PATH}?op=getPCNList`,
    '/M/API/openapi.json',
  ])('%s: private, max-age=0, as the legacy server sent on every 200', async (url) => {
    const res = await request(t.app).get(url).set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, max-age=0');
  });

  it('a compressed document still varies on Accept-Encoding', async () => {
    const res = await request(t.app).get(`/M${MAIN_PATH}?wsdl`).set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it('the error page of an unknown operation: private, as the legacy server sent on its error pages', async () => {
    const res = await request(t.app).get(`/M${MAIN_PATH}?op=NoSuchOp`).expect(500);
    expect(res.headers['cache-control']).toBe('private');
  });
});
