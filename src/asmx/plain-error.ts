/** The HTTP GET/POST bindings' error answer (docs/contract.md): text/plain, the message and CRLF. */
import type { ServerResponse } from 'node:http';
import { HTTP_TEXT } from '../protocol-texts';
import { sendWhole } from '../send';

export function sendPlainError(res: ServerResponse, status: number, message: string): void {
  sendWhole(res, status, 'text/plain; charset=utf-8', `${message}\r\n`);
}

/** A failure of the server's own: 500 with a fixed text, never the error's message or stack. */
export function sendPlainServerError(res: ServerResponse): void {
  sendPlainError(res, 500, HTTP_TEXT.serverError());
}
