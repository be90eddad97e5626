/** The SOAP version (text/xml 1.1, application/soap+xml 1.2, else not SOAP) and action from the Content-Type. */
import type { SoapVersion } from './soap-version';

export interface SoapContentType {
  version: SoapVersion;
  /** The charset parameter, lower case, when given. */
  charset?: string;
  /** SOAP 1.2 only: the action parameter, quotes removed, when given. */
  action?: string;
}

// A Map: a plain object would find `constructor` or `toString` among its inherited members.
const VERSION_BY_MEDIA_TYPE = new Map<string, SoapVersion>([
  ['text/xml', '1.1'],
  ['application/soap+xml', '1.2'],
]);

export function parseSoapContentType(header: string | undefined): SoapContentType | undefined {
  if (!header) return undefined;
  const [mediaType, ...rawParams] = splitParams(header);
  const version = VERSION_BY_MEDIA_TYPE.get(mediaType.trim().toLowerCase());
  if (!version) return undefined;
  const params = new Map<string, string>();
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    if (eq > 0) params.set(param.slice(0, eq).trim().toLowerCase(), unquote(param.slice(eq + 1).trim()));
  }
  return {
    version,
    charset: params.get('charset')?.toLowerCase(),
    action: version === '1.2' ? params.get('action') : undefined,
  };
}

/** Splits on ';' outside double quotes (an action URI may itself contain ';'). */
function splitParams(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    if (ch === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/** Strips one pair of surrounding double quotes (the SOAPAction rule of docs/contract.md, also used here). */
export function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
