/**
 * The HTTP GET/POST bindings' Cache-Control as the legacy server sent it (docs/contract.md, "Recorded
 * legacy answers"): `private, max-age=0` on what an operation answered, `private` on a refusal.
 *
 * `X-Content-Type-Options: nosniff` on every kind of answer (src/send.ts, setAnswerHeaders; docs/behaviour.md,
 * "Headers of every answer"): JSON, XML, HTML, plain-text errors, SOAP responses and faults, bare
 * statuses, 404s, 405s, documents, the access guard's refusals, kept and compressed answers and the
 * probes. The startup gate's 503 is checked in test/ops/database-faults.test.ts, the metrics listener's
 * answers in test/ops/metrics-port.test.ts.
 */
import request from 'supertest';
import { startTestApp, suiteApp, type TestApp } from '../support/app';
import { insertMasterData } from '../support/fixture';
import { envelope, MAIN_PATH, operationElement, postSoap, SYNC_PATH, textParser } from '../soap/soap-support';

const NS = 'http://tempuri.org/';

type Ask = (app: TestApp['app']) => request.Test;

const ANSWERS: ReadonlyArray<readonly [string, number, Ask]> = [
  ['HTTP GET JSON rows', 200, (app) => request(app).get(`${MAIN_PATH}/FillAreaManagers`)],
  [
    'the same answer again, kept',
    200,
    (app) => request(app).get(`${MAIN_PATH}/FillAreaManagers`).set('Accept-Encoding', 'gzip'),
  ],
  [
    'a compressed answer (the WSDL, gzip)',
    200,
    (app) => request(app).get(`${MAIN_PATH}?wsdl`).set('Accept-Encoding', 'gzip'),
  ],
  ['HTTP GET XML (HelloWorld)', 200, (app) => request(app).get(`${SYNC_PATH}/HelloWorld`)],
  ['v2 HTTP GET typed XML', 200, (app) => request(app).get('/API/v2/MobileAppWebService.asmx/FillAreaManagers')],
  [
    'HTTP POST JSON business failure',
    200,
    (app) => request(app).post(`${MAIN_PATH}/getPCNList`).type('form').send('PaymentType=CREDIT'),
  ],
  ['HTTP plain-text protocol error', 500, (app) => request(app).get(`${MAIN_PATH}/NoSuchOperation`)],
  [
    'SOAP 1.1 response',
    200,
    (app) =>
      postSoap(app, SYNC_PATH, '1.1', envelope('1.1', operationElement('HelloWorld', NS)), {
        action: `"${NS}HelloWorld"`,
      }),
  ],
  [
    'SOAP 1.2 fault',
    500,
    (app) =>
      postSoap(app, MAIN_PATH, '1.2', envelope('1.2', operationElement('getPCNList', NS, { PaymentType: 'CREDIT' }))),
  ],
  ['SOAP bare 415', 415, (app) => request(app).post(MAIN_PATH).set('Content-Type', 'text/plain').send('x')],
  ['the WSDL', 200, (app) => request(app).get(`${MAIN_PATH}?wsdl`)],
  ['the disco document', 200, (app) => request(app).get(`${MAIN_PATH}?disco`)],
  ['the HTML help page', 200, (app) => request(app).get(MAIN_PATH)],
  ['the error page of an unknown operation', 500, (app) => request(app).get(`${MAIN_PATH}?op=NoSuchOp`)],
  ['the OpenAPI document', 200, (app) => request(app).get('/API/openapi.json')],
  ['a 404', 404, (app) => request(app).get('/nowhere')],
  ['a 405 on the .asmx', 405, (app) => request(app).put(MAIN_PATH).send('')],
  ['/health', 200, (app) => request(app).get('/health')],
  ['HEAD /health', 200, (app) => request(app).head('/health')],
  ['/ready', 200, (app) => request(app).get('/ready')],
  ['/metrics', 200, (app) => request(app).get('/metrics')],
];

describe('X-Content-Type-Options: nosniff', () => {
  let t: TestApp;
  suiteApp({ masterData: true }, (started) => (t = started));

  it.each(ANSWERS)('on %s', async (_label, status, ask) => {
    const res = await ask(t.app).buffer(true).parse(textParser);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("on the access guard's refusals and the refusals of writes from browsers", async () => {
    const guarded = await startTestApp({ env: { AUTH_MODE: 'basic' } });
    try {
      await insertMasterData(guarded.engine.db);
      const refused = await request(guarded.app).get(`${MAIN_PATH}/FillAreaManagers`);
      expect([refused.status, refused.headers['x-content-type-options']]).toEqual([401, 'nosniff']);
      const fault = await postSoap(
        guarded.app,
        MAIN_PATH,
        '1.1',
        envelope('1.1', operationElement('FillAreaManagers', NS)),
        { action: `"${NS}FillAreaManagers"` },
      );
      expect([fault.status, fault.headers['x-content-type-options']]).toEqual([401, 'nosniff']);
    } finally {
      await guarded.close();
    }
  });
});

describe('Content-Length beside compression', () => {
  let t: TestApp;
  suiteApp({ masterData: true }, (started) => (t = started));

  // The middleware writes the head itself: only an answer that declared its length keeps it.
  it.each(ANSWERS)(
    'on %s asked with Accept-Encoding, when it is too short to be compressed',
    async (_label, status, ask) => {
      const res = await ask(t.app).set('Accept-Encoding', 'gzip, br').buffer(true).parse(textParser);
      expect(res.status).toBe(status);
      if (res.headers['content-encoding'] !== undefined) return;
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(
        res.request.method === 'HEAD' ? res.headers['content-length'] : String(Buffer.byteLength(res.text, 'utf8')),
      );
    },
  );
});

describe('Cache-Control of the HTTP GET/POST bindings', () => {
  let t: TestApp;
  suiteApp({ masterData: true, env: { MAX_REQUEST_BYTES: '1024' } }, (started) => (t = started));

  it.each([
    ['JSON rows', 200, (app) => request(app).get(`${MAIN_PATH}/FillAreaManagers`)],
    ['the same answer kept', 200, (app) => request(app).get(`${MAIN_PATH}/FillAreaManagers`)],
    ['XML (HelloWorld over POST)', 200, (app) => request(app).post(`${SYNC_PATH}/HelloWorld`).type('form').send('')],
    [
      'a JSON business failure',
      200,
      (app) => request(app).post(`${MAIN_PATH}/getPCNList`).type('form').send('PaymentType=CREDIT'),
    ],
    ['v2 typed XML', 200, (app) => request(app).get('/API/v2/MobileAppWebService.asmx/FillAreaManagers')],
    [
      'a v2 ServiceError',
      500,
      (app) => request(app).get('/API/v2/MobileAppWebService.asmx/getPCNList?PaymentType=CREDIT'),
    ],
  ] as ReadonlyArray<readonly [string, number, Ask]>)('%s: private, max-age=0', async (_label, status, ask) => {
    const res = await ask(t.app).buffer(true).parse(textParser);
    expect([res.status, res.headers['cache-control']]).toEqual([status, 'private, max-age=0']);
  });

  it.each([
    ['an unknown operation', 500, (app) => request(app).get(`${MAIN_PATH}/NoSuchOperation`)],
    ['a method name in the wrong case', 500, (app) => request(app).get(`${MAIN_PATH}/getpcnlist`)],
    [
      'a text/plain body',
      500,
      (app) => request(app).post(`${MAIN_PATH}/getPCNList`).set('Content-Type', 'text/plain').send('x'),
    ],
    [
      'a body over the size limit',
      413,
      (app) =>
        request(app)
          .post(`${MAIN_PATH}/getPCNList`)
          .type('form')
          .send(`SalesOfficer=${'x'.repeat(2048)}`),
    ],
  ] as ReadonlyArray<readonly [string, number, Ask]>)('%s: private', async (_label, status, ask) => {
    const res = await ask(t.app).buffer(true).parse(textParser);
    expect([res.status, res.headers['cache-control']]).toEqual([status, 'private']);
  });
});
