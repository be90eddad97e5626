/** FillAreaManagers (docs/behaviour.md): the active area managers a user may pick from. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import { findUser, idsBelow, type User } from '../users/hierarchy';
import { assertVisible, type OfficerBound } from '../users/principal-scope';

/** Whose list is asked for: undefined for no username; NOT_FOUND for an unknown one, or one outside the bound. */
export async function areaManagerViewer(db: Kysely<Database>, username: string | undefined, allowed?: OfficerBound): Promise<User | undefined> {
  if (username === undefined) return undefined;
  const user = await findUser(db, username);
  const unknown = () => notFound('username', `username: '${username}' is not a known user`);
  if (!user) throw unknown();
  assertVisible(allowed, user.id, unknown);
  return user;
}

/** The area managers the (checked) viewer may pick from; every one for no viewer. */
export async function areaManagersOf(db: Kysely<Database>, user: User | undefined) {
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

/** Active area managers, all of them or those with the given ids; by name, then id. */
async function activeAreaManagers(db: Kysely<Database>, ids?: readonly string[]) {
  if (ids !== undefined && ids.length === 0) return [];
  let query = db
    .selectFrom('users')
    .select(['id as Id', 'username as Username', 'name as Name', 'zone_code as ZoneCode'])
    .where('role', '=', 'AM')
    .where('active', '=', 1);
  if (ids !== undefined) query = query.where('id', 'in', ids);
  return query.orderBy('name').orderBy('id').execute();
}
