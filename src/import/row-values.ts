/**
 * One CSV record -> the typed values of a table row, or every reason it cannot be stored
 * (docs/import.md, "Values"). Blank and empty fields are the same: the column's fallback, or null;
 * a required column may not be blank. References are checked later, per batch, against the database.
 */
import type { DateOrder } from '../config';
import { ValueError, parseValue, unescapeText, type Value } from './column-types';
import type { Header, Problem } from './header';
import type { Row, TableSpec } from './table-spec';

export function rowValues(
  spec: TableSpec,
  header: Header,
  fields: string[],
  dateOrder: DateOrder,
): { values: Row } | { problems: Problem[] } {
  if (fields.length !== header.width) {
    return { problems: [{ column: '', reason: `has ${fields.length} fields; the header has ${header.width}` }] };
  }
  const values: Row = {};
  const problems: Problem[] = [];
  for (const column of spec.columns) {
    const position = header.positions.get(column.name);
    const cell = position === undefined ? '' : fields[position].trim();
    // Before the empty check: a lone apostrophe is an escaped empty text, the same as an empty field.
    const text = column.type.kind === 'text' ? unescapeText(cell) : cell;
    if (text === '') {
      if (column.required) problems.push({ column: column.name, reason: 'is required and is empty' });
      values[column.name] = null;
      continue;
    }
    try {
      values[column.name] = parseValue(column.type, text, dateOrder);
    } catch (err) {
      if (!(err instanceof ValueError)) throw err;
      problems.push({ column: column.name, reason: err.message });
    }
  }
  if (problems.length > 0) return { problems };
  applyFallbacks(spec, values);
  const broken = spec.check?.(values);
  return broken ? { problems: [broken] } : { values };
}

/** Fallbacks computed from other columns read the row's final values, so they run after parsing. */
function applyFallbacks(spec: TableSpec, values: Row): void {
  for (const column of spec.columns) {
    if (values[column.name] !== null || column.fallback === undefined) continue;
    const fallback: Value = typeof column.fallback === 'function' ? column.fallback(values) : column.fallback;
    values[column.name] = fallback;
  }
}
