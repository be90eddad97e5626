/**
 * The header line of an import file: the table's column names, any case, any order. Unknown, repeated
 * or missing required names refuse the whole file, since no row of it could be read reliably
 * (docs/import.md, "File format").
 */
import type { ColumnSpec, TableSpec } from './table-spec';

export interface Problem {
  column: string;
  reason: string;
}

/** For each spec column, its position in the file's records (undefined when the file leaves it out). */
export interface Header {
  width: number;
  positions: Map<string, number>;
}

export function readHeader(spec: TableSpec, fields: string[]): { header: Header } | { problems: Problem[] } {
  const byName = new Map<string, ColumnSpec>(spec.columns.map((c) => [c.name, c]));
  const positions = new Map<string, number>();
  const problems: Problem[] = [];
  fields.forEach((field, index) => {
    const name = field.trim().toLowerCase();
    if (name === '') problems.push({ column: `#${index + 1}`, reason: 'the header has an empty column name' });
    else if (positions.has(name)) problems.push({ column: name, reason: 'appears twice in the header' });
    else if (spec.assigned?.includes(name))
      problems.push({ column: name, reason: 'is assigned by the import and cannot be given' });
    else if (!byName.has(name))
      problems.push({
        column: name,
        reason: `is not a column of ${spec.table} (use ${[...byName.keys()].join(', ')})`,
      });
    else positions.set(name, index);
  });
  for (const column of spec.columns) {
    if (column.required && !positions.has(column.name))
      problems.push({ column: column.name, reason: 'is a required column and is missing from the header' });
  }
  return problems.length > 0 ? { problems } : { header: { width: fields.length, positions } };
}
