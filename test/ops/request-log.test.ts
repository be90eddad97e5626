/**
 * The request log (src/monitoring/request-log.ts): one JSON line per request with its id, binding, service,
 * operation, outcome, status, fault code and duration; the X-Request-Id header honoured or generated
 * and echoed; no secret, query string or body ever in a line; unexpected failures at error level with
 * their stack; LOG_LEVEL obeyed. The lines are read from the logger's destination.
 */
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadSettings } from '../../src/config';
import { createLogger, lineWriter, TurnBatch } from '../../src/monitoring/logger';
import { freshEngine } from '../support/engines';
import { captureLog, MAIN, SOAP11, SOAP12, soapEnvelope, startOpsApp, SYNC, type OpsApp } from './ops-support';

/** A SOAP call of `operation` with `params` (child elements) under the request id `reqId`. */
function soapCall(app: OpsApp['app'], version: typeof SOAP11, operation: string, params: string, reqId: string) {
  return request(app)
    .post(MAIN)
    .set('Content-Type', version.type)
    .set('X-Request-Id', reqId)
    .send(soapEnvelope(version, operation, params));
}

describe('request log', () => {
  let ops: OpsApp;
  beforeEach(async () => {
    ops = await startOpsApp();
  });
  afterEach(() => ops.close());

  it('writes one line per request with the binding, service, operation, outcome, status and duration', async () => {
    const res = await request(ops.app).get(`${SYNC}/HelloWorld`).set('X-Request-Id', 'client-req-42');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('client-req-42');
    const line = await ops.log.find((l) => l.reqId === 'client-req-42');
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request completed',
      method: 'GET',
      path: `${SYNC}/HelloWorld`,
      binding: 'httpget',
      service: 'SyncCustomers',
      operation: 'HelloWorld',
      outcome: 'success',
      status: 200,
    });
    expect(typeof line.durationMs).toBe('number');
    expect(ops.log.lines.filter((l) => l.reqId === 'client-req-42')).toHaveLength(1);
  });

  it('generates a request id when the client sends none or one that is not a sane token', async () => {
    const none = await request(ops.app).get(`${SYNC}/HelloWorld`);
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const insane = await request(ops.app).get(`${SYNC}/HelloWorld`).set('X-Request-Id', 'a b"<script>');
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await request(ops.app).get(`${SYNC}/HelloWorld`).set('X-Request-Id', 'x'.repeat(129));
    expect(tooLong.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const res of [none, insane, tooLong]) await ops.log.find((l) => l.reqId === res.headers['x-request-id']);
    expect(JSON.stringify(ops.log.lines)).not.toContain('<script>');
  });

  it('names the SOAP fault code and the business error code of a refused operation', async () => {
    const soap = await soapCall(ops.app, SOAP12, 'FillAreaManagers', '<username>nobody</username>', 'soap-business');
    expect(soap.status).toBe(500);
    expect(await ops.log.find((l) => l.reqId === 'soap-business')).toMatchObject({
      binding: 'soap12',
      service: 'MobileAppWebService',
      operation: 'FillAreaManagers',
      outcome: 'business_error',
      status: 500,
      faultCode: 'soap:Sender',
      errorCode: 'NOT_FOUND',
      level: 'info',
    });

    const http = await request(ops.app)
      .post(`${MAIN}/FillAreaManagers`)
      .type('form')
      .send({ username: 'nobody' })
      .set('X-Request-Id', 'http-business');
    expect(http.body.Code).toBe('NOT_FOUND');
    expect(await ops.log.find((l) => l.reqId === 'http-business')).toMatchObject({
      binding: 'httppost',
      operation: 'FillAreaManagers',
      outcome: 'business_error',
      status: 200,
      faultCode: 'NOT_FOUND',
    });
  });

  it('logs protocol refusals without turning an unknown operation name into a field value', async () => {
    await request(ops.app)
      .post(MAIN)
      .set('Content-Type', SOAP11.type)
      .set('SOAPAction', '"http://tempuri.org/MadeUpOperation"')
      .set('X-Request-Id', 'soap-unknown')
      .send(soapEnvelope(SOAP11, 'MadeUpOperation'));
    expect(await ops.log.find((l) => l.reqId === 'soap-unknown')).toMatchObject({
      binding: 'soap11',
      operation: 'unknown',
      outcome: 'client_fault',
      faultCode: 'soap:Client',
    });
    await request(ops.app)
      .post(MAIN)
      .set('Content-Type', 'application/json')
      .set('X-Request-Id', 'soap-415')
      .send('{}');
    expect(await ops.log.find((l) => l.reqId === 'soap-415')).toMatchObject({
      binding: 'soap11',
      outcome: 'protocol_error',
      status: 415,
    });
    await request(ops.app).get('/nowhere').set('X-Request-Id', 'nowhere');
    expect(await ops.log.find((l) => l.reqId === 'nowhere')).toMatchObject({
      binding: 'other',
      service: 'none',
      outcome: 'not_found',
      status: 404,
    });
    await request(ops.app).get(`${MAIN}?wsdl`).set('X-Request-Id', 'wsdl');
    expect(await ops.log.find((l) => l.reqId === 'wsdl')).toMatchObject({
      binding: 'document',
      operation: 'wsdl',
      outcome: 'success',
    });
  });

  it('never logs credentials, query strings or request bodies', async () => {
    await request(ops.app)
      .post(`${MAIN}/FillAreaManagers`)
      .query({ apiToken: 'query-secret-1' })
      .set('Authorization', 'Basic c2VjcmV0LXVzZXI6c2VjcmV0LXBhc3M=')
      .set('Cookie', 'session=cookie-secret-2')
      .set('X-Api-Key', 'header-secret-3')
      .set('X-Request-Id', 'secrets')
      .type('form')
      .send({ username: 'body-secret-4', password: 'password-secret-5' });
    const line = await ops.log.find((l) => l.reqId === 'secrets');
    expect(line.path).toBe(`${MAIN}/FillAreaManagers`);
    const everything = JSON.stringify(ops.log.lines);
    for (const secret of [
      'c2VjcmV0',
      'cookie-secret-2',
      'header-secret-3',
      'query-secret-1',
      'body-secret-4',
      'password-secret-5',
    ]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('logs an unexpected failure at error level with its stack, and the client sees no internals', async () => {
    await ops.close();
    const http = await request(ops.app)
      .get(`${MAIN}/FillAreaManagers`)
      .query({ username: 'x' })
      .set('X-Request-Id', 'broken-http');
    expect(http.status).toBe(500);
    expect(http.text).toBe('Server was unable to process request.\r\n');
    const httpLine = await ops.log.find((l) => l.reqId === 'broken-http');
    expect(httpLine).toMatchObject({
      level: 'error',
      outcome: 'server_fault',
      binding: 'httpget',
      operation: 'FillAreaManagers',
    });
    expect((httpLine.err as { stack: string }).stack).toMatch(/\n\s+at /);

    const soap = await soapCall(ops.app, SOAP11, 'FillAreaManagers', '<username>x</username>', 'broken-soap');
    expect(soap.status).toBe(500);
    expect(soap.text).toContain('<faultcode>soap:Server</faultcode>');
    expect(soap.text).not.toMatch(/destroyed|\sat\s/);
    const soapLine = await ops.log.find((l) => l.reqId === 'broken-soap');
    expect(soapLine).toMatchObject({
      level: 'error',
      outcome: 'server_fault',
      faultCode: 'soap:Server',
      binding: 'soap11',
    });
    expect((soapLine.err as { stack: string }).stack).toMatch(/\n\s+at /);
  });

  it('logs the probes at debug level only', async () => {
    await request(ops.app).get('/health').set('X-Request-Id', 'probe');
    await request(ops.app).get(`${SYNC}/HelloWorld`).set('X-Request-Id', 'after-probe');
    await ops.log.find((l) => l.reqId === 'after-probe');
    expect(ops.log.lines.find((l) => l.reqId === 'probe')).toBeUndefined();
  });
});

describe('LOG_LEVEL', () => {
  it.each([
    ['silent', 0, 0],
    ['error', 0, 1],
    ['info', 1, 1],
  ])('%s', async (level, infoLines, errorLines) => {
    const engine = await freshEngine('sqlite');
    const log = captureLog();
    const app = createApp({ settings: loadSettings({ LOG_LEVEL: level }), engine, logDestination: log.destination });
    await request(app).get(`${SYNC}/HelloWorld`);
    await engine.close();
    await request(app).get(`${MAIN}/FillAreaManagers?username=x`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.lines.filter((l) => l.level === 'info')).toHaveLength(infoLines);
    expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(errorLines);
  });
});

describe('the request line writer', () => {
  it("writes exactly the logger's own line for the same flat fields", () => {
    const raw: string[] = [];
    const root = createLogger({ logLevel: 'debug' }, { write: (line: string) => void raw.push(line) });
    const fields = {
      reqId: 'a-1',
      path: '/API/Ré"sumé\\\u0001\u2028.asmx',
      status: 200,
      durationMs: 0.5,
      faultCode: undefined,
      operation: 'HelloWorld',
    };
    for (const logger of [root, root.child({ role: 'worker' })]) {
      raw.length = 0;
      logger.info(fields, 'request completed');
      lineWriter(logger)('info', fields, 'request completed');
      logger.debug(fields, 'request aborted');
      lineWriter(logger)('debug', fields, 'request aborted');
      const [byLogger, byWriter, debugByLogger, debugByWriter] = raw.map((line) =>
        line.replace(/"time":"[^"]+"/, '"time":"T"'),
      );
      expect(byWriter).toBe(byLogger);
      expect(debugByWriter).toBe(debugByLogger);
      expect(JSON.parse(byWriter)).toMatchObject({
        level: 'info',
        path: fields.path,
        status: 200,
        msg: 'request completed',
      });
    }
  });
});

describe('the stdout batch (TurnBatch)', () => {
  it('hands the lines of one turn of the event loop to its sink in one write at the end of the turn, and what waits on flush', async () => {
    const writes: string[] = [];
    const batch = new TurnBatch({ write: (text: string) => void writes.push(text) });
    batch.write('{"n":1}\n');
    batch.write('{"n":2}\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    // The next turn's lines are a write of their own; flush() (at exit) writes what waits at once.
    batch.write('{"n":3}\n');
    batch.flush();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });
});
