/**
 * FillAreaManagers (docs/behaviour.md): the area managers a user may pick from.
 *   ADMIN, or no username: every area manager;  ZM: the area managers below them;
 *   AM: themselves;  SO: their own area manager (their manager).
 * Only active users are offered. An unknown username is NOT_FOUND (docs/behaviour.md names this exception to
 * "not found is an empty result").
 * With an authenticated user, another user's list is answered only for a user within their scope
 * (themselves or below them); anyone else is FORBIDDEN (principal-scope.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import { findUser, idsBelow, type User } from '../users/hierarchy';
import { activeAreaManagers, type AreaManagerRow } from './repository';
import { assertVisible, type OfficerBound } from '../users/principal-scope';

/**
 * Whose list is asked for, checked before anything is read: undefined for no username (every area
 * manager); an unknown username is NOT_FOUND, and so is one outside the bound (as if unknown).
 */
export async function areaManagerViewer(db: Kysely<Database>, username: string | undefined, allowed?: OfficerBound): Promise<User | undefined> {
  if (username === undefined) return undefined;
  const user = await findUser(db, username);
  const unknown = () => notFound('username', `username: '${username}' is not a known user`);
  if (!user) throw unknown();
  assertVisible(allowed, user.id, unknown);
  return user;
}

/** The area managers the (checked) viewer may pick from; every one for no viewer. */
export async function areaManagersOf(db: Kysely<Database>, user: User | undefined): Promise<AreaManagerRow[]> {
  if (user === undefined) return activeAreaManagers(db);
  switch (user.role) {
    case 'ADMIN':
      return activeAreaManagers(db);
    case 'ZM':
      return activeAreaManagers(db, await idsBelow(db, user.id));
    case 'AM':
      return activeAreaManagers(db, [user.id]);
    case 'SO':
      // An officer reporting straight to someone who is not an area manager has none to offer.
      return user.manager_id === null ? [] : activeAreaManagers(db, [user.manager_id]);
  }
}
