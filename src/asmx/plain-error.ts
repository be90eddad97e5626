/**
 * The HTTP GET/POST bindings' error answer (docs/contract.md, "HTTP GET and HTTP POST"):
 * text/plain; charset=utf-8, the message followed by CRLF.
 */
import type { Response } from 'express';
import { HTTP_TEXT } from '../protocol-texts';

export function sendPlainError(res: Response, status: number, message: string): void {
  res.status(status).set('Content-Type', 'text/plain; charset=utf-8').send(`${message}\r\n`);
}

/** A failure of the server's own: 500 with a fixed text, never the error's message or stack. */
export function sendPlainServerError(res: Response): void {
  sendPlainError(res, 500, HTTP_TEXT.serverError());
}
