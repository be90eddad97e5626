/** The authenticated user of a request, kept on res.locals from the access guard to the bindings. */
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
