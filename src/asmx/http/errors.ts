/** The protocol failures of the HTTP GET / POST bindings, answered as plain text (plain-error.ts). */
import { HTTP_TEXT } from '../../protocol-texts';

export class HttpProtocolError extends Error {
  constructor(message: string, readonly status = 500) {
    super(message);
    this.name = 'HttpProtocolError';
  }
}

export const unrecognizedUrl = (rest: string) => new HttpProtocolError(HTTP_TEXT.unrecognizedUrl(rest));

export const invalidMethodName = (name: string) => new HttpProtocolError(HTTP_TEXT.invalidMethodName(name));

export const wrongCaseMethodName = (got: string, actual: string) => new HttpProtocolError(HTTP_TEXT.wrongCaseMethodName(got, actual));

export const invalidRequestFormat = (contentType: string) => new HttpProtocolError(HTTP_TEXT.invalidRequestFormat(contentType));
