/**
 * The pairs a binding collected as an OperationRequest: names match the declared ones without regard
 * to case (docs/contract.md), the first occurrence wins, unknown names are dropped.
 */
import type { OperationRequest, UploadedFile } from '../operations/types';
import type { ServiceOperation } from './types';

export function buildRequest(operation: Pick<ServiceOperation, 'params' | 'fields' | 'acceptsFiles'>, values: Iterable<readonly [string, string]>, files: readonly UploadedFile[]): OperationRequest {
  const canonical = new Map([...operation.params, ...operation.fields].map((name) => [name.toLowerCase(), name]));
  const fields: Record<string, string> = {};
  for (const [name, value] of values) {
    const known = canonical.get(name.toLowerCase());
    if (known !== undefined && !Object.prototype.hasOwnProperty.call(fields, known)) fields[known] = value;
  }
  return { fields, files: operation.acceptsFiles ? files : [] };
}

/** docs/behaviour.md: a write operation that carries no input at all does nothing. */
export function carriesNoInput(request: OperationRequest): boolean {
  return request.files.length === 0 && Object.values(request.fields).every((value) => value.trim() === '');
}
