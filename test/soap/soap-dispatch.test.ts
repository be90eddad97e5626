/**
 * The bindings' requests are taken at the app's entry, before routing (src/app.ts,
 * enterServicesFirst), and answer exactly as the routed stack does: the path matched without regard
 * to case, the same headers and log line, the access guard and compression in front, and the same
 * answer when the app is mounted in another Express app. Anything else still goes through the router.
 */
import express from 'express';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { MAIN, SOAP11, SOAP12, soapEnvelope, startOpsApp, SYNC, type OpsApp } from '../ops/ops-support';
import { helloWorldResponse } from './soap-support';

const NS = 'http://tempuri.org/';

describe("the bindings' dispatcher", () => {
  let ops: OpsApp;
  beforeAll(async () => {
    ops = await startOpsApp();
  });
  afterAll(() => ops.close());

  const hello = (app: RequestListener, path: string, headers: Record<string, string> = {}) =>
    request(app)
      .post(path)
      .set('Content-Type', SOAP11.type)
      .set('SOAPAction', `"${NS}HelloWorld"`)
      .set(headers)
      .send(soapEnvelope(SOAP11, 'HelloWorld'));

  it('answers a path that differs only in case as the router would, with one log line', async () => {
    const exact = await hello(ops.app, SYNC, { 'X-Request-Id': 'door-exact' });
    const lower = await hello(ops.app, SYNC.toLowerCase(), { 'X-Request-Id': 'door-lower' });
    expect(exact.status).toBe(200);
    expect(lower.text).toBe(exact.text);
    expect(exact.text).toBe(helloWorldResponse('1.1', NS));
    expect({ ...lower.headers, date: '', 'x-request-id': '' }).toEqual({
      ...exact.headers,
      date: '',
      'x-request-id': '',
    });
    expect(lower.headers['x-request-id']).toBe('door-lower');
    const line = await ops.log.find((l) => l.reqId === 'door-lower');
    expect(line).toMatchObject({
      method: 'POST',
      path: SYNC.toLowerCase(),
      binding: 'soap11',
      service: 'SyncCustomers',
      operation: 'HelloWorld',
      outcome: 'success',
      status: 200,
    });
    expect(ops.log.lines.filter((l) => l.reqId === 'door-lower')).toHaveLength(1);
  });

  it('compresses as the routed stack does when asked', async () => {
    const res = await request(ops.app)
      .post(MAIN)
      .set('Content-Type', SOAP12.type)
      .set('Accept-Encoding', 'gzip')
      .send(soapEnvelope(SOAP12, 'getPCNDetails', '<PDCID>none</PDCID>'));
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it('leaves a trailing slash, a query string path and other methods to the router', async () => {
    const slash = await hello(ops.app, `${SYNC}/`);
    expect(slash.status).not.toBe(200);
    expect((await request(ops.app).put(SYNC)).status).toBe(405);
    expect((await request(ops.app).get(`${SYNC}/HelloWorld`)).status).toBe(200);
    const withQuery = await hello(ops.app, `${SYNC}?x=1`);
    expect(withQuery.text).toBe(helloWorldResponse('1.1', NS));
  });

  it('answers HTTP GET and POST under a path that differs only in case as the router would', async () => {
    const exact = await request(ops.app).get(`${SYNC}/HelloWorld`).set('X-Request-Id', 'door-get');
    const lower = await request(ops.app).get(`${SYNC.toLowerCase()}/HelloWorld`).set('X-Request-Id', 'door-get-lower');
    expect(exact.status).toBe(200);
    expect(lower.text).toBe(exact.text);
    expect(await ops.log.find((l) => l.reqId === 'door-get-lower')).toMatchObject({
      binding: 'httpget',
      operation: 'HelloWorld',
      outcome: 'success',
      path: `${SYNC.toLowerCase()}/HelloWorld`,
    });
    const post = await request(ops.app).post(`${MAIN}/FillAreaManagers`).type('form').send({ username: 'nobody' });
    expect(JSON.parse(post.text)).toMatchObject({ Success: false, Code: 'NOT_FOUND' });
    expect((await request(ops.app).get(`${MAIN}/NoSuchOp`)).status).toBe(500);
  });

  it('answers alike when the app is mounted in another Express app', async () => {
    const outer = express();
    outer.use(ops.app);
    const res = await hello(outer, SYNC);
    expect(res.status).toBe(200);
    expect(res.text).toBe(helloWorldResponse('1.1', NS));
  });
});
