/**
 * The protocol failures of the HTTP GET / HTTP POST bindings, with the legacy platform's texts
 * (contract.md, "HTTP GET ... and HTTP POST"; asmx-captures README, "HttpGet / HttpPost errors").
 * All are answered 500 text/plain; charset=utf-8 (plain-error.ts).
 */
export class HttpProtocolError extends Error {
  constructor(message: string, readonly status = 500) {
    super(message);
    this.name = 'HttpProtocolError';
  }
}

export const unrecognizedUrl = (rest: string) =>
  new HttpProtocolError(`Request format is unrecognized for URL unexpectedly ending in '${rest}'.`);

export const invalidMethodName = (name: string) => new HttpProtocolError(`${name} Web Service method name is not valid.`);

/** The double spaces are ASMX's own. */
export const wrongCaseMethodName = (got: string, actual: string) =>
  new HttpProtocolError(
    `Invalid method name '${got}',  method names are case sensitive.   The method name '${actual}' with the same name but different casing was found.`,
  );

export const invalidRequestFormat = (contentType: string) => new HttpProtocolError(`Request format is invalid: ${contentType}.`);
