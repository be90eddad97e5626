/**
 * Typed v2 answers (docs/v2.md) brought back to the JSON envelope's members, so that a test can
 * compare them field by field with the legacy HTTP GET JSON of the same call. The answer may come from
 * any client: a generic reading of the XML (xmlToValue below), zeep's objects, PHP's stdClass, the npm
 * soap client's objects. The declaration (src/operations/results.ts) says what each value is, so the
 * clients' own ways are undone here: list wrappers (ArrayOfX holds X, one item or many), empty lists
 * and empty strings given as nothing, numbers as text or decimals, timestamps in another ISO form.
 */
import {
  isScalar,
  type FieldType,
  type RecordType,
  type ResultType,
  type ScalarKind,
} from '../../src/operations/results';
import { isNil, parseXmlDocument, type XmlNode } from '../../src/contract-check/xml';

export type { XmlNode };

export interface JsonMembers {
  Message: string;
  Count?: number;
  Data: unknown;
  Totals?: Record<string, unknown>;
  NextPageToken?: string | null;
}

/** The members of the legacy JSON envelope that a typed answer carries too (all but Success). */
export function jsonMembers(envelope: Record<string, unknown>): JsonMembers {
  const { Success: _success, ...members } = envelope;
  return members as unknown as JsonMembers;
}

/**
 * A client's result element (<opResult> or the HTTP root) as the JSON envelope's members. `paged`:
 * whether the call asked for a page; only then is there a NextPageToken (some clients read the absent
 * element as null).
 */
export function typedAsJson(value: unknown, returns: ResultType, paged: boolean): JsonMembers {
  if (returns.kind === 'text') throw new Error('a text result has no envelope');
  const result = (value ?? {}) as Record<string, unknown>;
  const members: JsonMembers = { Message: scalar('string', result.Message) as string, Data: null };
  const data = present(result.Data) ? result.Data : undefined;
  if (returns.kind === 'rows') {
    if (data !== undefined || present(result.Count)) {
      members.Count = Number(result.Count);
      members.Data = list(data, returns.row);
    }
    if (returns.totals && present(result.Totals)) members.Totals = record(result.Totals, returns.totals);
  } else if (data !== undefined) {
    members.Data = record(data, returns.type);
  }
  if (returns.pageable && paged) members.NextPageToken = (result.NextPageToken as string | null | undefined) ?? null;
  // The JSON writes its members in this order: Message, Count, Data, Totals, NextPageToken.
  return Object.fromEntries(
    Object.entries(members).filter(([key, v]) => v !== undefined || key === 'Data'),
  ) as unknown as JsonMembers;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function list(value: unknown, row: RecordType): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.map((item) => record(item, row));
  const items = (value as Record<string, unknown>)[row.name];
  if (items === undefined || items === null) return [];
  return (Array.isArray(items) ? items : [items]).map((item) => record(item, row));
}

function record(value: unknown, type: RecordType): Record<string, unknown> {
  const fields = (value ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(type.fields).map(([name, fieldType]) => [name, field(fields[name], fieldType)]),
  );
}

function field(value: unknown, type: FieldType): unknown {
  if (isScalar(type))
    return value === null || value === undefined
      ? type.kind === 'string' && !type.nullable
        ? ''
        : null
      : scalar(type.kind, value);
  if ('list' in type) return list(value, type.list);
  return record(value, type.record);
}

function scalar(kind: ScalarKind, value: unknown): unknown {
  if (value === null || value === undefined) return kind === 'string' ? '' : null;
  switch (kind) {
    case 'integer':
    case 'money':
    case 'decimal':
      return Number(value);
    case 'boolean':
      return value === true || value === 'true';
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : text(value).slice(0, 10);
    case 'dateTime':
      return new Date(value instanceof Date ? value : text(value)).toISOString();
    default:
      return text(value);
  }
}

/** A client's leaf value as text: a string as it is, a number or boolean written out, anything else as JSON. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Reads a whole document: the contract checker's reader (namespaces, text, in-scope prefixes). */
export function readXml(xml: string): XmlNode {
  return parseXmlDocument(xml);
}

/** The first element of that local name, depth first. */
export function findElement(node: XmlNode, local: string): XmlNode | undefined {
  if (node.local === local) return node;
  for (const child of node.children) {
    const found = findElement(child, local);
    if (found) return found;
  }
  return undefined;
}

/**
 * An element as a client without the schema would read it: text for a leaf, null for xsi:nil, an
 * object of the children otherwise (a repeated name becomes an array).
 */
export function xmlToValue(node: XmlNode): unknown {
  if (isNil(node)) return null;
  if (node.children.length === 0) return node.text;
  const value: Record<string, unknown> = {};
  for (const child of node.children) {
    const item = xmlToValue(child);
    const existing = value[child.local];
    if (existing === undefined) value[child.local] = item;
    else value[child.local] = Array.isArray(existing) ? [...existing, item] : [existing, item];
  }
  return value;
}
