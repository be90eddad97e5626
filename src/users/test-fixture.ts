/**
 * What the tests of the authenticated user's bound share: the fixture's users as principals, and the
 * officers each one sees, worked out here from the fixture's rows (not by the code under test).
 */
import type { UsersTable } from '../db/schema';
import { AppError } from '../errors';
import { USERS } from '../../test/support/fixture';

type UserRow = Omit<UsersTable, 'role'> & { role: UsersTable['role'] };

/** A user of `users` (the shared fixture's by default) as the authenticated user. */
export function principal(id: string, users: readonly UserRow[] = USERS): UsersTable {
  const user = users.find((u) => u.id === id);
  if (!user) throw new Error(`no fixture user ${id}`);
  return { ...user };
}

/**
 * The officers `id` sees: an SO themselves, an AM or ZM themselves and everyone below them at any
 * depth, the ADMIN everyone (undefined).
 */
export function officersSeenBy(id: string, users: readonly UserRow[] = USERS): string[] | undefined {
  const user = principal(id, users);
  if (user.role === 'ADMIN') return undefined;
  if (user.role === 'SO') return [id];
  const seen = [id];
  for (let i = 0; i < seen.length; i++) {
    for (const u of users) if (u.manager_id === seen[i] && !seen.includes(u.id)) seen.push(u.id);
  }
  return seen;
}

/** Whether `officerId` is seen by `id` (see officersSeenBy). */
export function seesOfficer(id: string, officerId: string, users: readonly UserRow[] = USERS): boolean {
  const seen = officersSeenBy(id, users);
  return seen === undefined || seen.includes(officerId);
}

/**
 * A refusal with the value the caller sent replaced, so that the answer for a record outside the scope
 * can be compared with the one for a record that does not exist (they must be equal).
 */
export function refusalShape(error: unknown, sent: string): { code: string; field?: string; message: string } {
  if (!(error instanceof AppError)) throw new Error(`expected a business refusal, got ${String(error)}`);
  return { code: error.code, field: error.field, message: error.message.split(sent).join('<sent>') };
}
