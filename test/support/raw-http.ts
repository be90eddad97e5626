/**
 * One HTTP request with exactly the given bytes and headers, for the cases a client library would
 * rewrite (supertest serialises a Buffer sent as a form, and sets its own Host header).
 */
import http from 'node:http';
import type { App } from '../../src/app';
import { listen } from './listen';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export async function rawRequest(
  app: App,
  options: { method: string; path: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string },
): Promise<RawResponse> {
  const server = await listen(app);
  try {
    return await send(server.port, options);
  } finally {
    await server.stop();
  }
}

function send(
  port: number,
  options: { method: string; path: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
