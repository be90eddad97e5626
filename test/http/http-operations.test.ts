/**
 * Every operation of both services over HTTP GET and HTTP POST (docs/contract.md, "HTTP GET ... and HTTP
 * POST"; docs/behaviour.md, "Result format"), with the default settings and with custom namespaces and a
 * BASE_PATH. On an empty database every operation called without parameters succeeds (docs/behaviour.md:
 * "Every operation invoked with an empty parameter set succeeds with status 200").
 */
import request from 'supertest';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { MAIN_OPERATION_NAMES, MAIN_PATH, SYNC_PATH, WRITE_OPERATIONS } from '../support/interface-table';

const SETUPS = ENGINES.flatMap((kind) => [
  {
    label: `default settings: ${kind}`,
    kind,
    env: {},
    base: '',
    apiNs: 'http://tempuri.org/',
    syncNs: 'http://tempuri.org/',
  },
  {
    label: `custom namespaces and BASE_PATH: ${kind}`,
    kind,
    env: {
      API_NAMESPACE: 'https://api.example.com/mobile/',
      SYNC_NAMESPACE: 'urn:example:sync',
      BASE_PATH: '/MobileApp',
    },
    base: '/MobileApp',
    apiNs: 'https://api.example.com/mobile/',
    syncNs: 'urn:example:sync',
  },
]);

function expectSuccessEnvelope(res: request.Response, operation: string): void {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(res.text);
  expect(body.Success).toBe(true);
  expect(typeof body.Message).toBe('string');
  expect(Object.keys(body)[0]).toBe('Success');
  expect('Data' in body).toBe(true);
  if (Array.isArray(body.Data)) expect(body.Count).toBe(body.Data.length);
  else expect('Count' in body).toBe(false);
  if (WRITE_OPERATIONS.includes(operation)) {
    expect(body.Data).toBeNull();
    expect(body.Message).toBe('No input was given: nothing was changed.');
  }
}

describe.each(SETUPS)('HTTP GET and POST, $label', ({ kind, env, base, syncNs }) => {
  let t: TestApp;
  suiteApp({ kind, env }, (started) => (t = started));

  it.each(MAIN_OPERATION_NAMES)('GET %s answers the JSON result', async (operation) => {
    expectSuccessEnvelope(await request(t.app).get(`${base}${MAIN_PATH}/${operation}`), operation);
  });

  it.each(MAIN_OPERATION_NAMES)('POST %s (empty form) answers the JSON result', async (operation) => {
    const res = await request(t.app).post(`${base}${MAIN_PATH}/${operation}`).type('form').send('');
    expectSuccessEnvelope(res, operation);
  });

  it.each(['getSalesSummaryRecords', 'getCollectionStatements'])(
    '%s carries Count, Data and Totals in that order',
    async (operation) => {
      const body = JSON.parse((await request(t.app).get(`${base}${MAIN_PATH}/${operation}`)).text);
      expect(Object.keys(body)).toEqual(['Success', 'Message', 'Count', 'Data', 'Totals']);
      expect(typeof body.Totals).toBe('object');
    },
  );

  it('an object result carries no Count and no Totals', async () => {
    const body = JSON.parse((await request(t.app).get(`${base}${MAIN_PATH}/getSalesReportStats`)).text);
    expect(Object.keys(body)).toEqual(['Success', 'Message', 'Data']);
    expect(typeof body.Data).toBe('object');
  });

  it.each(['GET', 'POST'])('HelloWorld over %s answers <string> in the sync namespace', async (method) => {
    const url = `${base}${SYNC_PATH}/HelloWorld`;
    const res = method === 'GET' ? await request(t.app).get(url) : await request(t.app).post(url).type('form').send('');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.text).toBe(`<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="${syncNs}">Hello World</string>`);
  });

  it('HelloWorld over POST without a Content-Type works too (no parameters)', async () => {
    const res = await request(t.app).post(`${base}${SYNC_PATH}/HelloWorld`).set('Content-Type', '').send();
    expect(res.status).toBe(200);
    expect(res.text).toContain('>Hello World</string>');
  });

  it('HelloWorld ignores extra parameters', async () => {
    const res = await request(t.app).get(`${base}${SYNC_PATH}/HelloWorld?x=1&HelloWorld=2`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('>Hello World</string>');
  });
});

describe('a BASE_PATH moves the services', () => {
  let t: TestApp;
  suiteApp({ env: { BASE_PATH: '/MobileApp/' } }, (started) => (t = started));

  it('answers nothing at the root paths', async () => {
    const res = await request(t.app).get(`${SYNC_PATH}/HelloWorld`);
    expect(res.status).toBe(404);
  });

  it('answers under the base path', async () => {
    const res = await request(t.app).get(`/MobileApp${SYNC_PATH}/HelloWorld`);
    expect(res.status).toBe(200);
  });
});
