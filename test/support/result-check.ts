/**
 * The check of a result against its declaration (src/operations/results.ts), run by the operation
 * tests on every result they get (test/support/operation.ts).
 */
import {
  isScalar,
  type FieldType,
  type RecordType,
  type ResultType,
  type ScalarKind,
} from '../../src/operations/results';

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
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${path}: ${describe(value)} is not a ${type.name}`];
  const actual = Object.keys(value);
  const declared = Object.keys(type.fields);
  if (actual.join() !== declared.join())
    return [`${path}: fields ${actual.join(', ')} differ from ${type.name}'s ${declared.join(', ')}`];
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
  if (type.kind === 'text')
    return typeof result.data === 'string' ? [] : [`Data: ${describe(result.data)} is not a string`];
  const problems: string[] = [];
  if (result.data === null) {
    if (!noInputWrite && !(type.kind === 'record' && type.nullable)) problems.push('Data: null, declared not nullable');
  } else {
    problems.push(
      ...valueMismatches(result.data, type.kind === 'rows' ? { list: type.row } : { record: type.type }, 'Data'),
    );
  }
  const totals = type.kind === 'rows' ? type.totals : undefined;
  if (totals === undefined) {
    if (result.totals !== undefined) problems.push('Totals: present, none declared');
  } else if (result.data !== null) {
    problems.push(...valueMismatches(result.totals ?? undefined, { record: totals }, 'Totals'));
  }
  if (result.nextPageToken !== undefined) {
    if (!type.pageable) problems.push('NextPageToken: present, the operation is not pageable');
    else if (result.nextPageToken !== null && typeof result.nextPageToken !== 'string')
      problems.push('NextPageToken: not a string');
  }
  return problems;
}
