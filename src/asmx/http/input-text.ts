/**
 * Text reaching an operation over HTTP GET and POST, read strictly: bytes that are not UTF-8 and
 * characters XML 1.0 cannot carry are INVALID_PARAMETER, never replaced (no SOAP answer could carry them
 * back out). Forms are split as the WHATWG parser does, refusing what URLSearchParams would replace.
 */
import { AppError, invalid } from '../../errors';
import { HTTP_TEXT } from '../../protocol-texts';

/** One character outside XML 1.0's Char production (the u flag makes a lone surrogate one match). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes, or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The first character XML 1.0 cannot carry, written U+XXXX, or undefined when there is none. */
export function forbiddenCharacter(text: string): string | undefined {
  const match = NOT_XML_CHAR.exec(text);
  if (!match) return undefined;
  return `U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A name/value pair whose name and value hold only characters XML can carry; else INVALID_PARAMETER. */
export function checkedField(name: string, value: string): [string, string] {
  const inValue = forbiddenCharacter(value);
  if (inValue) throw invalid(checkedName(name), `holds the character ${inValue}, which is not allowed`);
  return [checkedName(name), value];
}

function checkedName(name: string): string {
  const inName = forbiddenCharacter(name);
  if (inName)
    throw new AppError('INVALID_PARAMETER', `A parameter name holds the character ${inName}, which is not allowed`);
  return name;
}

/** A protocol failure of the HTTP GET / POST bindings, answered as plain text (plain-error.ts). */
export class HttpProtocolError extends Error {
  constructor(
    message: string,
    readonly status = 500,
  ) {
    super(message);
    this.name = 'HttpProtocolError';
  }
}

export const invalidRequestFormat = (contentType: string) =>
  new HttpProtocolError(HTTP_TEXT.invalidRequestFormat(contentType));

/** Over MAX_REQUEST_FIELDS: 413, like a body over MAX_REQUEST_BYTES. */
export const tooManyFields = (max: number) => new HttpProtocolError(HTTP_TEXT.tooManyFields(max), 413);

/** The pairs of a query string or form body, in order; the one past maxFields is refused before it is decoded. */
export function readFormPairs(bytes: Buffer, maxFields = Number.POSITIVE_INFINITY): [string, string][] {
  const pairs: [string, string][] = [];
  let start = 0;
  while (start < bytes.length) {
    const amp = bytes.indexOf(0x26, start);
    const end = amp < 0 ? bytes.length : amp;
    if (end > start) {
      if (pairs.length >= maxFields) throw tooManyFields(maxFields);
      pairs.push(readPair(bytes.subarray(start, end)));
    }
    start = end + 1;
  }
  return pairs;
}

function readPair(sequence: Buffer): [string, string] {
  const eq = sequence.indexOf(0x3d);
  const name = decodeUtf8(percentDecode(eq < 0 ? sequence : sequence.subarray(0, eq)));
  if (name === undefined) throw new AppError('INVALID_PARAMETER', 'A parameter name is not valid UTF-8');
  const value = decodeUtf8(percentDecode(eq < 0 ? Buffer.alloc(0) : sequence.subarray(eq + 1)));
  if (value === undefined)
    throw invalid(checkedName(name), 'is not valid UTF-8 (percent-encode the UTF-8 bytes of the text)');
  return checkedField(name, value);
}

/** '+' is a space; %XX with two hex digits is that byte; any other '%' stays as it is (WHATWG). */
function percentDecode(bytes: Buffer): Buffer {
  if (bytes.indexOf(0x25) < 0 && bytes.indexOf(0x2b) < 0) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    const high = i + 2 < bytes.length ? hexValue(bytes[i + 1]) : -1;
    const low = high >= 0 ? hexValue(bytes[i + 2]) : -1;
    if (byte === 0x25 && low >= 0) {
      out[n++] = high * 16 + low;
      i += 2;
    } else {
      out[n++] = byte === 0x2b ? 0x20 : byte;
    }
  }
  return out.subarray(0, n);
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}
