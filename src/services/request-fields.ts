/**
 * Turns the name/value pairs a binding collected into an OperationRequest (docs/behaviour.md, "Parameter
 * conventions"): names match the operation's declared names case-insensitively (docs/contract.md: parameter
 * names are not case-sensitive), the first occurrence of a name wins, unknown names are dropped.
 */
import type { OperationRequest, UploadedFile } from '../operations/types';
import type { ServiceOperation } from './types';

function declaredNames(operation: Pick<ServiceOperation, 'params' | 'fields'>): readonly string[] {
  return [...operation.params, ...operation.fields];
}

function matchFields(
  names: readonly string[],
  values: Iterable<readonly [string, string]>,
): Record<string, string> {
  const canonical = new Map(names.map((name) => [name.toLowerCase(), name]));
  const fields: Record<string, string> = {};
  for (const [name, value] of values) {
    const known = canonical.get(name.toLowerCase());
    if (known !== undefined && !Object.prototype.hasOwnProperty.call(fields, known)) fields[known] = value;
  }
  return fields;
}

export function buildRequest(
  operation: Pick<ServiceOperation, 'params' | 'fields' | 'acceptsFiles'>,
  values: Iterable<readonly [string, string]>,
  files: readonly UploadedFile[],
): OperationRequest {
  return {
    fields: matchFields(declaredNames(operation), values),
    files: operation.acceptsFiles ? files : [],
  };
}

/** docs/behaviour.md: a write operation that carries no input at all does nothing. */
export function carriesNoInput(request: OperationRequest): boolean {
  return request.files.length === 0 && Object.values(request.fields).every((value) => value.trim() === '');
}
