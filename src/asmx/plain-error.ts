/**
 * The HTTP GET/POST bindings' error answer (docs/contract.md, "HTTP GET and HTTP POST"):
 * text/plain; charset=utf-8, the message followed by CRLF.
 */
import type { ServerResponse } from 'node:http';
import { HTTP_TEXT } from '../protocol-texts';

export function sendPlainError(res: ServerResponse, status: number, message: string): void {
  const body = `${message}\r\n`;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(body, 'utf8')));
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** A failure of the server's own: 500 with a fixed text, never the error's message or stack. */
export function sendPlainServerError(res: ServerResponse): void {
  sendPlainError(res, 500, HTTP_TEXT.serverError());
}
