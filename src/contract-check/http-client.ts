/**
 * One HTTP request with exactly the bytes and headers the check gives (node:http, no client library
 * that would add, reorder or rewrite headers), and the whole answer. A connection is never reused:
 * every check sees the server as a fresh client does.
 */
import http from 'node:http';
import https from 'node:https';

export interface HttpRequest {
  method: string;
  /** Path and query relative to the base URL's origin, e.g. /API/X.asmx?wsdl */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface HttpExchange {
  request: HttpRequest;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function sendRequest(baseUrl: string, request: HttpRequest, timeoutMs: number): Promise<HttpExchange> {
  const origin = new URL(baseUrl);
  const transport = origin.protocol === 'https:' ? https : http;
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { ...request.headers };
  if (body !== undefined && !hasHeader(headers, 'content-length')) headers['Content-Length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = transport.request(
      {
        protocol: origin.protocol,
        hostname: origin.hostname.replace(/^\[|\]$/g, ''),
        port: origin.port || undefined,
        method: request.method,
        path: request.path,
        headers,
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            request,
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}
