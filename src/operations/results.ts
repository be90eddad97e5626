/**
 * What an operation answers, declared once (docs/results.md): the bindings and documents derive their
 * typed descriptions from it, and the operation tests check every result against it
 * (test/support/result-check.ts).
 */

/** money: at most two decimals; date: yyyy-MM-dd; dateTime: UTC, yyyy-MM-ddTHH:mm:ss.sssZ (test/support/result-check.ts). */
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
