/**
 * An OTLP trace receiver for the tests: what a collector would be, small enough to read. It takes
 * ExportTraceServiceRequest over the three protocols the SDK speaks (http/protobuf and http/json at
 * POST /v1/traces, grpc at TraceService/Export over HTTP/2), decodes each into the same plain spans,
 * and keeps the raw bytes too, so a test can check that a secret appears nowhere in what was sent.
 *
 * The protobuf decoding is a walk over the wire format with the field numbers of
 * opentelemetry-proto's trace.proto, common.proto and resource.proto.
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (trace.proto's SpanKind). */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  scope: string;
  resource: Record<string, AttributeValue>;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

export interface OtlpReceiver {
  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Every request body as it arrived. */
  raw: Buffer[];
  /** Content types of the requests (for the http protocols) or 'application/grpc'. */
  contentTypes: string[];
  /** Resolves once a span matching `match` has arrived. */
  waitForSpan(match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(protocol: OtlpProtocol): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const raw: Buffer[] = [];
  const contentTypes: string[] = [];
  const waiters = new Set<() => void>();
  const take = (body: Buffer, contentType: string) => {
    raw.push(body);
    contentTypes.push(contentType);
    spans.push(...(contentType.includes('json') ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body)));
    for (const wake of waiters) wake();
  };
  const server = protocol === 'grpc' ? grpcServer(take) : httpServer(take);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    raw,
    contentTypes,
    waitForSpan: (match, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = spans.find(match);
          if (!found) return;
          finish();
          resolve(found);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no such span within ${timeoutMs} ms; received: ${spans.map((s) => s.name).join(', ')}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Take = (body: Buffer, contentType: string) => void;

function httpServer(take: Take): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const contentType = req.headers['content-type'] ?? '';
      take(Buffer.concat(chunks), contentType);
      // An empty ExportTraceServiceResponse in the request's own encoding: all accepted.
      res.writeHead(200, { 'Content-Type': contentType }).end(contentType.includes('json') ? '{}' : '');
    });
  });
}

/** gRPC over HTTP/2: each message framed by a compression flag and a 4-byte length. */
function grpcServer(take: Take): http2.Http2Server {
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      if (headers[':path'] !== '/opentelemetry.proto.collector.trace.v1.TraceService/Export') {
        stream.respond(
          { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' },
          { endStream: true },
        );
        return;
      }
      const framed = Buffer.concat(chunks);
      for (let at = 0; at + 5 <= framed.length;) {
        const length = framed.readUInt32BE(at + 1);
        take(framed.subarray(at + 5, at + 5 + length), 'application/grpc');
        at += 5 + length;
      }
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      // An empty ExportTraceServiceResponse, uncompressed.
      stream.end(Buffer.from([0, 0, 0, 0, 0]));
    });
  });
  return server;
}

// ---- http/json: the protobuf JSON mapping, ids as hex

interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number; message?: string };
}
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[];
  }[];
}

function fromJson(request: JsonRequest): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind ?? 0,
          attributes: jsonAttributes(span.attributes),
          statusCode: span.status?.code ?? 0,
          statusMessage: span.status?.message ?? '',
          scope: scopeSpans.scope?.name ?? '',
          resource,
        });
      }
    }
  }
  return spans;
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, jsonValue(value)]));
}

function jsonValue(value: JsonAnyValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}

// ---- protobuf wire format

/** A message's fields by number, each occurrence in order: varints as bigint, the rest as bytes. */
type Fields = Map<number, (bigint | Buffer)[]>;

function fields(buffer: Buffer): Fields {
  const found: Fields = new Map();
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    let value: bigint | Buffer;
    switch (key & 7) {
      case 0:
        value = varint();
        break;
      case 1:
        value = buffer.subarray(at, (at += 8));
        break;
      case 2: {
        const length = Number(varint());
        value = buffer.subarray(at, (at += length));
        break;
      }
      case 5:
        value = buffer.subarray(at, (at += 4));
        break;
      default:
        throw new Error(`unexpected wire type ${key & 7}`);
    }
    if (!found.has(number)) found.set(number, []);
    found.get(number)!.push(value);
  }
  return found;
}

const all = (message: Fields, number: number) => (message.get(number) ?? []) as Buffer[];
const one = (message: Fields, number: number) => message.get(number)?.[0];
const text = (message: Fields, number: number) =>
  ((one(message, number) as Buffer | undefined) ?? Buffer.alloc(0)).toString('utf8');
const hex = (message: Fields, number: number) =>
  ((one(message, number) as Buffer | undefined) ?? Buffer.alloc(0)).toString('hex');
const int = (message: Fields, number: number) => Number((one(message, number) as bigint | undefined) ?? 0n);

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of all(fields(body), 1).map(fields)) {
    const resourceField = one(resourceSpans, 1) as Buffer | undefined;
    const resource = resourceField ? protobufAttributes(fields(resourceField)) : {};
    for (const scopeSpans of all(resourceSpans, 2).map(fields)) {
      const scopeField = one(scopeSpans, 1) as Buffer | undefined;
      const scope = scopeField ? text(fields(scopeField), 1) : '';
      for (const span of all(scopeSpans, 2).map(fields)) {
        const statusField = one(span, 15) as Buffer | undefined;
        const status = statusField ? fields(statusField) : new Map();
        spans.push({
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          parentSpanId: hex(span, 4),
          name: text(span, 5),
          kind: int(span, 6),
          attributes: protobufAttributes(span, 9),
          statusCode: int(status, 3),
          statusMessage: text(status, 2),
          scope,
          resource,
        });
      }
    }
  }
  return spans;
}

/** The KeyValue list at field `number` (1 in a Resource, 9 in a Span). */
function protobufAttributes(message: Fields, number = 1): Record<string, AttributeValue> {
  return Object.fromEntries(
    all(message, number)
      .map(fields)
      .map((pair) => [text(pair, 1), protobufValue(fields((one(pair, 2) as Buffer | undefined) ?? Buffer.alloc(0)))]),
  );
}

function protobufValue(value: Fields): AttributeValue {
  if (value.has(1)) return text(value, 1);
  if (value.has(2)) return int(value, 2) === 1;
  if (value.has(3)) return Number(BigInt.asIntN(64, one(value, 3) as bigint));
  if (value.has(4)) return (one(value, 4) as Buffer).readDoubleLE(0);
  if (value.has(5)) return all(fields(one(value, 5) as Buffer), 1).map((item) => protobufValue(fields(item)));
  return undefined;
}
