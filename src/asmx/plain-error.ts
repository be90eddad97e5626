/**
 * The HTTP GET/POST bindings' error answer (contract.md, "HTTP GET ... and HTTP POST"):
 * text/plain; charset=utf-8, the message followed by CRLF.
 */
import type { Response } from 'express';

export function sendPlainError(res: Response, status: number, message: string): void {
  res.status(status).set('Content-Type', 'text/plain; charset=utf-8').send(`${message}\r\n`);
}
