/**
 * Whose figures getSalesReportStats shows (docs/behaviour.md): the user's scope, which Role may narrow
 * but never widen. No Username is the company-wide view, an ADMIN who owns no customers.
 */
import type { Kysely } from 'kysely';
import type { Database, Role } from '../db/schema';
import { AppError, notFound } from '../errors';
import { findUser, officerScope, ROLE_RANK, type User } from '../users/hierarchy';
import { assertVisible, type OfficerBound } from '../users/principal-scope';

export interface StatsScope {
  username: string | null;
  role: Role;
  /** The officers whose customers count; undefined = every customer. */
  officers?: string[];
}

export async function statsScope(db: Kysely<Database>, username: string | undefined, role: Role | undefined, allowed?: OfficerBound): Promise<StatsScope> {
  const user = username === undefined ? undefined : await findUser(db, username);
  const unknown = () => notFound('Username', `Username: no user '${username}'`);
  if (username !== undefined && user === undefined) throw unknown();
  if (user !== undefined) assertVisible(allowed, user.id, unknown);
  const storedRole: Role = user?.role ?? 'ADMIN';
  const effective = role ?? storedRole;
  if (ROLE_RANK[effective] > ROLE_RANK[storedRole]) {
    throw new AppError('FORBIDDEN', `Role: ${effective} is above the user's role ${storedRole}`, 'Role');
  }
  return { username: user?.username ?? null, role: effective, officers: await scopeOfficers(db, user, effective) };
}

async function scopeOfficers(db: Kysely<Database>, user: User | undefined, effective: Role): Promise<string[] | undefined> {
  if (effective === 'SO') return user === undefined ? [] : [user.id];
  return user === undefined ? undefined : officerScope(db, user);
}
