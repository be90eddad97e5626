/** The protocol failures of the HTTP GET / POST bindings, answered as plain text (plain-error.ts). */
import { HTTP_TEXT } from '../../protocol-texts';

export class HttpProtocolError extends Error {
  constructor(message: string, readonly status = 500) {
    super(message);
    this.name = 'HttpProtocolError';
  }
}

export const invalidRequestFormat = (contentType: string) => new HttpProtocolError(HTTP_TEXT.invalidRequestFormat(contentType));
