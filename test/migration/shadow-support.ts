/** Raw HTTP exchanges for the migration tools' tests: the bytes as sent and received, nothing decoded. */
import http, { type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export function rawRequest(port: number, request: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method: request.method, path: request.path, headers: request.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

const ENVELOPES = { '1.1': 'http://schemas.xmlsoap.org/soap/envelope/', '1.2': 'http://www.w3.org/2003/05/soap-envelope' } as const;

/** A SOAP call of `operation` with its parameters, in the envelope and with the headers of `version`. */
export function soapCall(version: '1.1' | '1.2', path: string, namespace: string, operation: string, params: Record<string, string>): RawRequest {
  const inner = Object.entries(params)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPES[version]}"><soap:Body><${operation} xmlns="${namespace}">${inner}</${operation}></soap:Body></soap:Envelope>`;
  const headers: Record<string, string> =
    version === '1.1' ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${namespace}${operation}"` } : { 'content-type': `application/soap+xml; charset=utf-8; action="${namespace}${operation}"` };
  return { method: 'POST', path, headers, body };
}
