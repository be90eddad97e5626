/**
 * A JSON object body of the HTTP POST binding as name/value pairs, read strictly (docs/operations.md,
 * "Input limits"): UTF-8 only, and one linear scan bounds the depth and the members before JSON.parse,
 * as a deep nesting would overflow JSON.stringify's stack.
 */
import { invalid } from '../../errors';
import { HTTP_TEXT } from '../../protocol-texts';
import {
  checkedField,
  decodeUtf8,
  forbiddenCharacter,
  HttpProtocolError,
  invalidRequestFormat,
  tooManyFields,
} from './input-text';

interface JsonLimits {
  maxDepth: number;
  maxFields: number;
}

const notUtf8 = () => new HttpProtocolError(HTTP_TEXT.notUtf8(), 400);
const tooDeep = (max: number) => new HttpProtocolError(HTTP_TEXT.nestedTooDeep(max), 400);

/** A JSON object's members as strings (numbers and booleans as written; null as absent). */
export function jsonMembers(body: Buffer, contentType: string, limits: JsonLimits): [string, string][] {
  const text = decodeUtf8(body);
  if (text === undefined) throw notUtf8();
  scan(text, limits);
  let parsed: unknown;
  try {
    parsed = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw invalidRequestFormat(contentType);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequestFormat(contentType);
  const values: [string, string][] = [];
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value === 'string') values.push(checkedField(name, value));
    else if (typeof value === 'number' || typeof value === 'boolean') values.push(checkedField(name, String(value)));
    else if (typeof value === 'object' && value !== null) values.push(checkedField(name, nestedText(name, value)));
  }
  return values;
}

/** Counts the depth of [ and { outside strings and the top-level members; JSON.parse refuses what is not JSON. */
function scan(text: string, limits: JsonLimits): void {
  let depth = 0;
  let members = 1;
  let inString = false;
  const topIsObject = text.trimStart().startsWith('{');
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > limits.maxDepth) throw tooDeep(limits.maxDepth);
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    } else if (c === 0x2c && depth === 1 && topIsObject) {
      members += 1;
      if (members > limits.maxFields) throw tooManyFields(limits.maxFields);
    }
  }
}

/** A nested array or object is passed on as its JSON text, once every string in it is checked. */
function nestedText(name: string, value: object): string {
  const json = JSON.stringify(value);
  const forbidden = forbiddenInside(value);
  if (forbidden) throw invalid(name, `holds the character ${forbidden}, which is not allowed`);
  return json;
}

/** Depth is bounded by the scan, so this recursion is too; an array's keys are its indexes, plain digits. */
function forbiddenInside(value: unknown): string | undefined {
  if (typeof value === 'string') return forbiddenCharacter(value);
  if (value === null || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const found = forbiddenCharacter(key) ?? forbiddenInside(record[key]);
    if (found) return found;
  }
  return undefined;
}
