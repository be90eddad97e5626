/**
 * Credentials never reach a file the migration tools write (a report, a recording): headers that can
 * carry them are left out, and passwords or keys sent as fields (a query, a form, JSON, a SOAP element)
 * are replaced by REDACTED. They still pass through to the servers.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** Headers that may carry credentials or sessions (Authorization, Cookie, Set-Cookie, an API key header of any name). */
const SECRET_HEADER = /auth|cookie|key|token|secret|session/i;

export function withoutSecretHeaders(headers: Readonly<IncomingHttpHeaders>): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADER.test(name)));
}

/** `text` (a body, or a URL's path and query) with the values of password and key fields replaced. */
export function withoutPasswords(text: string): string {
  return text
    .replace(/((?:^|[?&])(?:password|apikey|api_key)=)[^&#]*/gi, '$1REDACTED')
    .replace(/("(?:password|apiKey|api_key)"\s*:\s*)"[^"]*"/gi, '$1"REDACTED"')
    .replace(/(<(?:[\w.-]+:)?(?:Password|ApiKey)>)[^<]*/gi, '$1REDACTED');
}

/** A body with its password fields replaced, its other bytes as they were (read as latin1 so that any bytes survive). */
export function bodyWithoutPasswords(body: Buffer): Buffer {
  const text = body.toString('latin1');
  const redacted = withoutPasswords(text);
  return redacted === text ? body : Buffer.from(redacted, 'latin1');
}
