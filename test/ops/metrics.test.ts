/**
 * GET /metrics (src/monitoring/metrics.ts): the process figures, the request series labelled by service,
 * operation, binding and outcome after calls in every binding (bounded: an unknown operation is
 * "unknown"), and the database connections of each engine. Served at the root, outside BASE_PATH.
 */
import request from 'supertest';
import { ENGINES } from '../support/engines';
import { MAIN, SOAP11, SOAP12, soapEnvelope, startOpsApp, SYNC, type OpsApp } from './ops-support';

function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labelText = line.slice(name.length + 1, line.lastIndexOf('}'));
    const present = labelText.split(',');
    if (wanted.every((w) => present.includes(w)) && present.length === wanted.length)
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(ENGINES)('metrics: %s', (kind) => {
  let ops: OpsApp;
  beforeAll(async () => {
    ops = await startOpsApp(kind, { BASE_PATH: '/Mobile' });
  });
  afterAll(() => ops.close());

  it('counts requests of every binding by service, operation, binding and outcome', async () => {
    const main = `/Mobile${MAIN}`;
    const sync = `/Mobile${SYNC}`;
    await request(ops.app)
      .post(sync)
      .set('Content-Type', SOAP11.type)
      .send(soapEnvelope(SOAP11, 'HelloWorld'))
      .expect(200);
    await request(ops.app)
      .post(sync)
      .set('Content-Type', SOAP12.type)
      .send(soapEnvelope(SOAP12, 'HelloWorld'))
      .expect(200);
    await request(ops.app)
      .post(sync)
      .set('Content-Type', SOAP12.type)
      .send(soapEnvelope(SOAP12, 'HelloWorld'))
      .expect(200);
    await request(ops.app).get(`${sync}/HelloWorld`).expect(200);
    await request(ops.app).post(`${sync}/HelloWorld`).type('form').send('').expect(200);
    await request(ops.app).get(`${main}?wsdl`).expect(200);
    await request(ops.app).get(`${main}/FillAreaManagers?username=nobody`).expect(200);
    await request(ops.app)
      .post(main)
      .set('Content-Type', SOAP11.type)
      .send(soapEnvelope(SOAP11, 'FillAreaManagers', '<username>nobody</username>'))
      .expect(500);
    await request(ops.app).get(`${main}/NoSuchOperation`).expect(500);
    await request(ops.app)
      .post(main)
      .set('Content-Type', SOAP11.type)
      .set('SOAPAction', '"http://tempuri.org/AlsoMadeUp"')
      .send(soapEnvelope(SOAP11, 'AlsoMadeUp'))
      .expect(500);

    const res = await request(ops.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const total = (labels: Record<string, string>) => series(text, 'asmx_requests_total', labels);
    expect(total({ service: 'SyncCustomers', operation: 'HelloWorld', binding: 'soap11', outcome: 'success' })).toBe(1);
    expect(total({ service: 'SyncCustomers', operation: 'HelloWorld', binding: 'soap12', outcome: 'success' })).toBe(2);
    expect(total({ service: 'SyncCustomers', operation: 'HelloWorld', binding: 'httpget', outcome: 'success' })).toBe(
      1,
    );
    expect(total({ service: 'SyncCustomers', operation: 'HelloWorld', binding: 'httppost', outcome: 'success' })).toBe(
      1,
    );
    expect(total({ service: 'MobileAppWebService', operation: 'wsdl', binding: 'document', outcome: 'success' })).toBe(
      1,
    );
    expect(
      total({
        service: 'MobileAppWebService',
        operation: 'FillAreaManagers',
        binding: 'httpget',
        outcome: 'business_error',
      }),
    ).toBe(1);
    expect(
      total({
        service: 'MobileAppWebService',
        operation: 'FillAreaManagers',
        binding: 'soap11',
        outcome: 'business_error',
      }),
    ).toBe(1);
    expect(
      total({ service: 'MobileAppWebService', operation: 'unknown', binding: 'httpget', outcome: 'protocol_error' }),
    ).toBe(1);
    expect(
      total({ service: 'MobileAppWebService', operation: 'unknown', binding: 'soap11', outcome: 'client_fault' }),
    ).toBe(1);
    expect(text).not.toContain('NoSuchOperation');
    expect(text).not.toContain('AlsoMadeUp');
    expect(
      series(text, 'asmx_request_duration_seconds_count', {
        service: 'SyncCustomers',
        operation: 'HelloWorld',
        binding: 'soap12',
        outcome: 'success',
      }),
    ).toBe(2);
    // The probes and /metrics itself are not service requests, in any letter case the router answers
    // them in: nothing of binding "other" yet.
    await request(ops.app).get('/health').expect(200);
    await request(ops.app).get('/HEALTH').expect(200);
    await request(ops.app).get('/Ready?probe=1').expect(200);
    await request(ops.app).head('/Metrics').expect(200);
    expect((await request(ops.app).get('/metrics')).text).not.toContain('binding="other"');
    expect(
      series(text, 'asmx_request_duration_seconds_bucket', {
        le: '+Inf',
        service: 'SyncCustomers',
        operation: 'HelloWorld',
        binding: 'soap12',
        outcome: 'success',
      }),
    ).toBe(2);
  });

  it('exposes the process figures and the database connections', async () => {
    const { text } = await request(ops.app).get('/metrics').expect(200);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    if (kind === 'sqlite') {
      expect(series(text, 'asmx_db_connections', { engine: 'sqlite', state: 'total' })).toBe(1);
      expect(series(text, 'asmx_db_waiting_queries', { engine: 'sqlite' })).toBe(0);
    } else {
      const pool = ops.engine.pool!;
      expect(series(text, 'asmx_db_connections', { engine: 'postgres', state: 'total' })).toBe(pool.totalCount);
      expect(pool.totalCount).toBeGreaterThan(0);
      expect(series(text, 'asmx_db_connections', { engine: 'postgres', state: 'idle' })).toBe(pool.idleCount);
      expect(series(text, 'asmx_db_waiting_queries', { engine: 'postgres' })).toBe(0);
    }
  });

  it('serves the operational endpoints at the root only, whatever BASE_PATH is', async () => {
    await request(ops.app).get('/Mobile/metrics').expect(404);
    await request(ops.app).get('/Mobile/health').expect(404);
    await request(ops.app).get('/health').expect(200);
  });
});
