/**
 * The authenticated user of a request, kept on res.locals between the access guard (which sets it)
 * and the bindings (which pass it to service.invoke, and so to OperationContext.principal).
 */
import type { BindingResponse } from './exchange';
import type { UsersTable } from '../db/schema';

interface Locals {
  principal?: UsersTable;
}

export function setPrincipal(res: BindingResponse, principal: UsersTable): void {
  (res.locals as Locals).principal = principal;
}

/** undefined when authentication is off (AUTH_MODE=off). */
export function principalOf(res: BindingResponse): UsersTable | undefined {
  return (res.locals as Locals).principal;
}
