/**
 * OpenTelemetry traces (src/tracing, docs/operations.md "Traces"): the real server in a process of
 * its own, configured by the standard OTEL_* variables only, exports to a real OTLP receiver
 * (test/support/otlp-receiver.ts) that decodes what arrives. On each engine: an incoming traceparent
 * is continued, the HTTP server span parents the operation span, the operation span parents each
 * database query, a business failure marks the operation span, the request's log line and its
 * traceresponse name the trace, and no parameter value or credential is in anything sent.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { ENGINES } from '../support/engines';
import { startOtlpReceiver, type OtlpProtocol, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { spawnServer, type SpawnedServer } from './spawned-server';

const SERVICE = '/API/MobileAppWebService.asmx';
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN_ID = 'b7ad6b7169203331';
/** Values the client sends that must never reach a span: a parameter value and a password. */
const OFFICER = 'SECRET-OFFICER-7';
const PASSWORD = 'pa55-never-exported';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function soap12(operation: string, inner: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">' +
    `<soap12:Body><${operation} xmlns="http://tempuri.org/">${inner}</${operation}></soap12:Body></soap12:Envelope>`
  );
}

/** A database of its own for one spawned server; removed afterwards. */
interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function testDatabase(kind: string): TestDatabase {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asmx-traces-'));
    return {
      url: `sqlite:${path.join(dir, 'traces.db')}`,
      drop: () => Promise.resolve(fs.rmSync(dir, { recursive: true, force: true })),
    };
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.searchParams.set('schema', schema);
  return {
    url: url.toString(),
    drop: async () => {
      const pool = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 });
      await pool.query(`drop schema if exists "${schema}" cascade`).finally(() => pool.end());
    },
  };
}

/** Exports within a tenth of a second, so a test waits for its spans no longer than that. */
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '100' };

/** The chain of parents of `span` among `spans`, nearest first. */
function ancestors(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (
    let parent = spans.find((s) => s.spanId === span.parentSpanId);
    parent;
    parent = spans.find((s) => s.spanId === parent.parentSpanId)
  )
    chain.push(parent);
  return chain;
}

describe.each(ENGINES)('traces on %s', (kind) => {
  let receiver: OtlpReceiver;
  let server: SpawnedServer;
  let database: TestDatabase;
  let port: number;

  beforeAll(async () => {
    receiver = await startOtlpReceiver('http/protobuf');
    database = testDatabase(kind);
    server = spawnServer({
      DATABASE_URL: database.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      ...FAST_EXPORT,
    });
    port = await server.port();
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await receiver.close();
    await database.drop();
  });

  it('continues the caller trace: HTTP span, operation span, one span per query, all in the log line and traceresponse', async () => {
    const answer = await request(port, 'GET', `${SERVICE}/getPCNList?SalesOfficer=${OFFICER}`, {
      traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`,
      Authorization: `Basic ${Buffer.from(`someone:${PASSWORD}`).toString('base64')}`,
    });
    expect(answer.status).toBe(200);

    const operation = await receiver.waitForSpan(
      (s) => s.name === 'MobileAppWebService/getPCNList' && s.traceId === TRACE_ID,
    );
    const httpSpan = await receiver.waitForSpan((s) => s.spanId === operation.parentSpanId);
    expect(httpSpan).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN_ID, kind: 2, name: 'GET' });
    expect(httpSpan.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': `${SERVICE}/getPCNList`,
      'url.query': 'SalesOfficer=REDACTED',
      'http.response.status_code': 200,
    });
    expect(operation.kind).toBe(1);
    expect(operation.statusCode).toBe(0);
    expect(operation.attributes).toEqual({
      'rpc.system.name': 'asmx_http',
      'rpc.method': 'MobileAppWebService/getPCNList',
      'asmx.binding': 'httpget',
      'asmx.contract': 'legacy',
      'asmx.outcome': 'success',
    });
    expect(operation.resource['service.name']).toBe('mobileapp-asmx');

    // Every query of the request (and, on PostgreSQL, taking a pooled connection) is a client span under the operation span.
    await receiver.waitForSpan((s) => s.traceId === TRACE_ID && s.attributes['db.query.text'] !== undefined);
    const clientSpans = receiver.spans.filter((s) => s.traceId === TRACE_ID && s.kind === 3);
    const queries = clientSpans.filter((s) => s.attributes['db.query.text'] !== undefined);
    expect(queries.length).toBeGreaterThan(0);
    for (const span of clientSpans) {
      expect(span.attributes['db.system.name']).toBe(kind === 'sqlite' ? 'sqlite' : 'postgresql');
      expect(ancestors(span, receiver.spans).map((s) => s.spanId)).toContain(operation.spanId);
    }
    for (const query of queries)
      expect(String(query.attributes['db.query.text'])).toMatch(/^\s*(select|with|begin|commit|rollback)/i);

    expect(answer.headers.traceresponse).toBe(`00-${TRACE_ID}-${httpSpan.spanId}-01`);
    const line = await server.waitForLine((l) => l.msg === 'request completed' && l.operation === 'getPCNList');
    expect(line).toMatchObject({ trace_id: TRACE_ID, span_id: httpSpan.spanId });

    const sent = Buffer.concat(receiver.raw);
    expect(sent.includes(OFFICER)).toBe(false);
    expect(sent.includes(PASSWORD)).toBe(false);
    expect(sent.includes(Buffer.from(`someone:${PASSWORD}`).toString('base64'))).toBe(false);
  });

  it('marks the operation span of a business failure (a SOAP 1.2 fault) with error.type and an error status', async () => {
    const answer = await request(
      port,
      'POST',
      SERVICE,
      { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      soap12('getPCNList', '<PaymentType>CHEQUES</PaymentType>'),
    );
    expect(answer.status).toBe(500);
    const traceId = String(answer.headers.traceresponse).split('-')[1];
    const operation = await receiver.waitForSpan(
      (s) => s.name === 'MobileAppWebService/getPCNList' && s.traceId === traceId,
    );
    expect(operation.attributes).toMatchObject({
      'rpc.system.name': 'soap',
      'asmx.binding': 'soap12',
      'asmx.contract': 'legacy',
      'asmx.outcome': 'business_error',
      'error.type': 'INVALID_PARAMETER',
    });
    expect(operation.statusCode).toBe(2);
    // A new trace: the request came without a traceparent.
    const httpSpan = receiver.spans.find((s) => s.spanId === operation.parentSpanId);
    expect(httpSpan?.parentSpanId).toBe('');
  });

  it('names the v2 contract on its operation spans', async () => {
    const answer = await request(port, 'GET', '/API/v2/MobileAppWebService.asmx/FillAreaManagers', {});
    expect(answer.status).toBe(200);
    const traceId = String(answer.headers.traceresponse).split('-')[1];
    const operation = await receiver.waitForSpan(
      (s) => s.name === 'MobileAppWebService/FillAreaManagers' && s.traceId === traceId,
    );
    expect(operation.attributes).toMatchObject({
      'asmx.binding': 'httpget',
      'asmx.contract': 'v2',
      'asmx.outcome': 'success',
    });
  });

  it('records nothing of a trace its caller did not sample, and its answer has no traceresponse, but its log line has the trace', async () => {
    const unsampled = 'f1e2d3c4b5a697887766554433221100';
    const answer = await request(port, 'GET', `${SERVICE}/FillAreaManagers`, {
      traceparent: `00-${unsampled}-${CALLER_SPAN_ID}-00`,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.traceresponse).toBeUndefined();
    const line = await server.waitForLine((l) => l.msg === 'request completed' && l.trace_id === unsampled);
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    // A sampled request sent after it is exported; by then the first would have been too.
    const sampled = await request(port, 'GET', `${SERVICE}/FillAreaManagers`, {});
    const traceId = String(sampled.headers.traceresponse).split('-')[1];
    await receiver.waitForSpan((s) => s.name === 'MobileAppWebService/FillAreaManagers' && s.traceId === traceId);
    expect(receiver.spans.filter((s) => s.traceId === unsampled)).toEqual([]);
  });

  it("traces a document's route handler through Express, not each middleware", async () => {
    const answer = await request(port, 'GET', `${SERVICE}?WSDL`, {});
    expect(answer.status).toBe(200);
    const traceId = String(answer.headers.traceresponse).split('-')[1];
    const handler = await receiver.waitForSpan(
      (s) => s.traceId === traceId && s.attributes['express.type'] === 'request_handler',
    );
    const httpSpan = await receiver.waitForSpan((s) => s.traceId === traceId && s.kind === 2);
    expect(handler.parentSpanId).toBe(httpSpan.spanId);
    expect(
      receiver.spans.filter(
        (s) =>
          s.traceId === traceId &&
          s.attributes['express.type'] !== undefined &&
          s.attributes['express.type'] !== 'request_handler',
      ),
    ).toEqual([]);
  });

  it('leaves the probes out of the traces', async () => {
    const health = await request(port, 'GET', '/health', {});
    expect(health.status).toBe(200);
    expect(health.headers.traceresponse).toBeUndefined();
    await request(port, 'GET', `${SERVICE}/FillAreaManagers`, {});
    await receiver.waitForSpan(
      (s) => s.name === 'MobileAppWebService/FillAreaManagers' && s.attributes['asmx.contract'] === 'legacy',
    );
    expect(receiver.spans.filter((s) => s.attributes['url.path'] === '/health')).toEqual([]);
  });
});

describe('trace export protocols and switches', () => {
  const started: { server: SpawnedServer; receiver?: OtlpReceiver; database: TestDatabase }[] = [];
  afterEach(async () => {
    for (const { server, receiver, database } of started.splice(0)) {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await server.exited;
      await receiver?.close();
      await database.drop();
    }
  });

  async function serve(env: Record<string, string>, protocol?: OtlpProtocol) {
    const receiver = protocol ? await startOtlpReceiver(protocol) : undefined;
    const database = testDatabase('sqlite');
    const server = spawnServer({
      DATABASE_URL: database.url,
      ...FAST_EXPORT,
      ...(receiver ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } : {}),
      ...env,
    });
    started.push({ server, receiver, database });
    return { server, receiver, port: await server.port() };
  }

  it.each([
    ['http/json', 'application/json'],
    ['grpc', 'application/grpc'],
  ] as const)('exports over %s when OTEL_EXPORTER_OTLP_PROTOCOL says so', async (protocol, contentType) => {
    const { receiver, port } = await serve(
      { OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_SERVICE_NAME: 'field-sales-api' },
      protocol,
    );
    await request(port, 'GET', '/API/SyncCustomers.asmx/HelloWorld', {});
    const operation = await receiver!.waitForSpan((s) => s.name === 'SyncCustomers/HelloWorld');
    expect(operation.resource['service.name']).toBe('field-sales-api');
    expect(receiver!.contentTypes[0]).toContain(contentType);
  });

  it('says in one line which OTEL_* value the SDK rejects, and still serves and traces', async () => {
    const { server, receiver, port } = await serve({ OTEL_TRACES_SAMPLER: 'sometimes' }, 'http/protobuf');
    expect((await request(port, 'GET', '/API/SyncCustomers.asmx/HelloWorld', {})).status).toBe(200);
    await receiver!.waitForSpan((s) => s.name === 'SyncCustomers/HelloWorld');
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^OpenTelemetry error: .*OTEL_TRACES_SAMPLER.*"sometimes"/);
  });

  it.each<[string, Record<string, string>]>([
    ['no endpoint is set', {}],
    ['OTEL_SDK_DISABLED is true', { OTEL_SDK_DISABLED: 'true' }],
  ])('traces nothing when %s', async (_when, env) => {
    const receiver = await startOtlpReceiver('http/protobuf');
    const endpoint: Record<string, string> =
      Object.keys(env).length > 0 ? { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces` } : {};
    const { server, port } = await serve({ ...endpoint, ...env });
    started[started.length - 1].receiver = receiver;
    const answer = await request(port, 'GET', `${SERVICE}/FillAreaManagers`, {
      traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.traceresponse).toBeUndefined();
    const line = await server.waitForLine((l) => l.msg === 'request completed' && l.operation === 'FillAreaManagers');
    expect(line.trace_id).toBeUndefined();
    // Ten export periods: anything the server would have sent has arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.raw).toEqual([]);
  });

  it('exports the spans still waiting when the server stops on SIGTERM', async () => {
    const { server, receiver, port } = await serve({ OTEL_BSP_SCHEDULE_DELAY: '60000' }, 'http/protobuf');
    await request(port, 'GET', '/API/SyncCustomers.asmx/HelloWorld', {});
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(receiver!.spans.map((s) => s.name)).toContain('SyncCustomers/HelloWorld');
  });
});
