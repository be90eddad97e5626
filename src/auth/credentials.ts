/**
 * The credentials a request presents, as AUTH_MODE allows them: HTTP Basic (RFC 7617, UTF-8) or an
 * API key in its own header. With AUTH_MODE=any, a request carrying a key is judged by the key alone.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthMode } from '../config';

export type Credentials =
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'apikey'; key: string }
  /** Something was sent but it cannot be credentials (bad Base64, no colon, two keys, ...). */
  | { kind: 'malformed' };

export function presentedCredentials(
  headers: IncomingHttpHeaders,
  mode: AuthMode,
  apiKeyHeader: string,
): Credentials | undefined {
  if (mode === 'apikey' || mode === 'any') {
    const key = headers[apiKeyHeader.toLowerCase()];
    if (key !== undefined) return typeof key === 'string' ? { kind: 'apikey', key } : { kind: 'malformed' };
  }
  if (mode === 'basic' || mode === 'any') return basicCredentials(headers.authorization);
  return undefined;
}

function basicCredentials(header: string | undefined): Credentials | undefined {
  const match = header === undefined ? null : /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
  if (!match) return header !== undefined && /^Basic\b/i.test(header) ? { kind: 'malformed' } : undefined;
  const decoded = decodeUtf8(Buffer.from(match[1], 'base64'));
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === undefined || colon < 1) return { kind: 'malformed' };
  return { kind: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
