/** The reporting tree: sales officers (SO) report to area managers (AM), AMs to zonal managers (ZM), ZMs to the ADMIN. */
import { sql, type Kysely } from 'kysely';
import type { Database, Role, UsersTable } from '../db/schema';

export type User = UsersTable;

/** Higher rank sees more. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { SO: 1, AM: 2, ZM: 3, ADMIN: 4 };

/** A user by id (employee code) or username, either without regard to case. */
export async function findUser(db: Kysely<Database>, idOrUsername: string): Promise<User | undefined> {
  const key = idOrUsername.trim().toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb(eb.fn('lower', ['id']), '=', key), eb('username', '=', key)]))
    .orderBy(sql`case when lower(id) = ${key} then 0 else 1 end`)
    .executeTakeFirst();
}

/** Ids of every user below `managerId` in the tree, at any depth (not including the manager). */
export async function idsBelow(db: Kysely<Database>, managerId: string): Promise<string[]> {
  const rows = await db
    .withRecursive('below(id)', (qb) =>
      qb
        .selectFrom('users')
        .select('id')
        .where('manager_id', '=', managerId)
        .unionAll((qb2) =>
          qb2.selectFrom('users').innerJoin('below', 'below.id', 'users.manager_id').select('users.id'),
        ),
    )
    .selectFrom('below')
    .select('id')
    .execute();
  return rows.map((r) => r.id);
}

/** True when `managerId` is above `userId` in the tree (a direct or indirect manager). */
export async function isAbove(db: Kysely<Database>, managerId: string, userId: string): Promise<boolean> {
  let current = await db.selectFrom('users').select('manager_id').where('id', '=', userId).executeTakeFirst();
  for (let depth = 0; current?.manager_id && depth < 32; depth++) {
    if (current.manager_id === managerId) return true;
    current = await db.selectFrom('users').select('manager_id').where('id', '=', current.manager_id).executeTakeFirst();
  }
  return false;
}

/** The officers whose data a user sees: an SO their own, an AM or ZM also everyone below, the ADMIN all (undefined). */
export async function officerScope(db: Kysely<Database>, user: User): Promise<string[] | undefined> {
  switch (user.role) {
    case 'ADMIN':
      return undefined;
    case 'SO':
      return [user.id];
    default:
      return [user.id, ...(await idsBelow(db, user.id))];
  }
}
