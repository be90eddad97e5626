/**
 * What an operation answers, declared once (docs/results.md): the bindings and documents derive their
 * typed descriptions from it, and the operation tests check every result against it (resultMismatches).
 */

/** money: at most two decimals; date: yyyy-MM-dd; dateTime: UTC, yyyy-MM-ddTHH:mm:ss.sssZ (SCALAR_CHECKS). */
export type ScalarKind = 'string' | 'integer' | 'money' | 'decimal' | 'date' | 'dateTime' | 'boolean';

export interface ScalarField {
  kind: ScalarKind;
  /** The value may be null (the JSON writes null; the field is always present). */
  nullable: boolean;
}

/** A named object type; its fields in the order the JSON writes them. */
export interface RecordType {
  name: string;
  fields: Readonly<Record<string, FieldType>>;
}

/** A field of a record: a value, a list of records, or one record. */
export type FieldType = ScalarField | { list: RecordType } | { record: RecordType };

/**
 * What the envelope's Data holds: rows (with Count, and Totals when declared), one record, or a text
 * (HelloWorld). `pageable`: it takes PageSize/PageToken and a paged answer adds NextPageToken.
 */
export type ResultType =
  | { kind: 'rows'; row: RecordType; totals?: RecordType; pageable: boolean }
  | { kind: 'record'; type: RecordType; nullable: boolean; pageable: boolean }
  | { kind: 'text' };

const scalar = (kind: ScalarKind): ScalarField => ({ kind, nullable: false });

/** A closed set of texts (a status, Dr/Cr) is a string: a value added later must not break a generated client. */
export const field = {
  string: scalar('string'),
  integer: scalar('integer'),
  money: scalar('money'),
  decimal: scalar('decimal'),
  date: scalar('date'),
  dateTime: scalar('dateTime'),
  boolean: scalar('boolean'),
} as const;

export function nullable(type: ScalarField): ScalarField {
  return { ...type, nullable: true };
}

export function recordType(name: string, fields: Record<string, FieldType>): RecordType {
  return { name, fields };
}

export function rows(row: RecordType, options: { totals?: RecordType; pageable?: boolean } = {}): ResultType {
  return { kind: 'rows', row, totals: options.totals, pageable: options.pageable ?? false };
}

export function record(type: RecordType, options: { nullable?: boolean; pageable?: boolean } = {}): ResultType {
  return { kind: 'record', type, nullable: options.nullable ?? false, pageable: options.pageable ?? false };
}

export const TEXT_RESULT: ResultType = { kind: 'text' };

export function isScalar(type: FieldType): type is ScalarField {
  return 'kind' in type;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const SCALAR_CHECKS: Readonly<Record<ScalarKind, (value: unknown) => boolean>> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isSafeInteger(v),
  money: (v) => typeof v === 'number' && Number.isFinite(v) && Math.round(v * 100) / 100 === v,
  decimal: (v) => typeof v === 'number' && Number.isFinite(v),
  date: (v) => typeof v === 'string' && DATE.test(v),
  dateTime: (v) => typeof v === 'string' && DATE_TIME.test(v),
  boolean: (v) => typeof v === 'boolean',
};

/** Where `value` differs from `type`, as readable lines; records hold exactly the declared fields, in order. */
export function valueMismatches(value: unknown, type: FieldType, path: string): string[] {
  if (isScalar(type)) {
    if (value === null) return type.nullable ? [] : [`${path}: null, declared not nullable`];
    return SCALAR_CHECKS[type.kind](value) ? [] : [`${path}: ${describe(value)} is not a valid ${type.kind}`];
  }
  if ('list' in type) {
    if (!Array.isArray(value)) return [`${path}: ${describe(value)} is not a list of ${type.list.name}`];
    return value.flatMap((item, i) => recordMismatches(item, type.list, `${path}[${i}]`));
  }
  return recordMismatches(value, type.record, path);
}

function recordMismatches(value: unknown, type: RecordType, path: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: ${describe(value)} is not a ${type.name}`];
  const actual = Object.keys(value);
  const declared = Object.keys(type.fields);
  if (actual.join() !== declared.join()) return [`${path}: fields ${actual.join(', ')} differ from ${type.name}'s ${declared.join(', ')}`];
  const fields = value as Record<string, unknown>;
  return declared.flatMap((name) => valueMismatches(fields[name], type.fields[name], `${path}.${name}`));
}

function describe(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value).slice(0, 60);
}

interface ResultParts {
  data: unknown;
  totals?: Record<string, number>;
  nextPageToken?: string | null;
}

/** Where a result differs from its declaration; `noInputWrite`: a write called without input answers Data null. */
export function resultMismatches(result: ResultParts, type: ResultType, noInputWrite = false): string[] {
  if (type.kind === 'text') return typeof result.data === 'string' ? [] : [`Data: ${describe(result.data)} is not a string`];
  const problems: string[] = [];
  if (result.data === null) {
    if (!noInputWrite && !(type.kind === 'record' && type.nullable)) problems.push('Data: null, declared not nullable');
  } else {
    problems.push(...valueMismatches(result.data, type.kind === 'rows' ? { list: type.row } : { record: type.type }, 'Data'));
  }
  const totals = type.kind === 'rows' ? type.totals : undefined;
  if (totals === undefined) {
    if (result.totals !== undefined) problems.push('Totals: present, none declared');
  } else if (result.data !== null) {
    problems.push(...valueMismatches(result.totals ?? undefined, { record: totals }, 'Totals'));
  }
  if (result.nextPageToken !== undefined) {
    if (!type.pageable) problems.push('NextPageToken: present, the operation is not pageable');
    else if (result.nextPageToken !== null && typeof result.nextPageToken !== 'string') problems.push('NextPageToken: not a string');
  }
  return problems;
}
