/**
 * Credentials never reach a file the migration tools write (a report, a recording): headers that can
 * carry them are left out, and passwords or keys sent as fields (a query, a form, JSON, a SOAP element)
 * are replaced by REDACTED, as is a URL's password. They still pass through to the servers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { redactedUrl } from '../config';

/** What stands for a removed credential: a word a reader of the files sees was taken out. */
export const REDACTED = 'REDACTED';

/** Headers that may carry credentials or sessions (Authorization, Cookie, Set-Cookie, an API key header of any name). */
const SECRET_HEADER = /auth|cookie|key|token|secret|session/i;

export function withoutSecretHeaders(headers: Readonly<IncomingHttpHeaders>): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADER.test(name)));
}

/** A body with the values of its password and key fields replaced: a form's as a URL's query, JSON's, SOAP's. */
export function withoutPasswords(text: string): string {
  return redactedUrl(text, REDACTED)
    .replace(/("(?:password|apiKey|api_key)"\s*:\s*)"[^"]*"/gi, '$1"REDACTED"')
    .replace(/(<(?:[\w.-]+:)?(?:Password|ApiKey)>)[^<]*/gi, '$1REDACTED');
}

/** A body with its password fields replaced, its other bytes as they were (read as latin1 so that any bytes survive). */
export function bodyWithoutPasswords(body: Buffer): Buffer {
  const text = body.toString('latin1');
  const redacted = withoutPasswords(text);
  return redacted === text ? body : Buffer.from(redacted, 'latin1');
}
