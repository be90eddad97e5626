/**
 * The credential tables and the queries on them. The tables are typed here and not in src/db/schema.ts so
 * that no other code reads a secret by accident; a principal's columns are named one by one, so it never carries a hash.
 */
import type { Kysely } from 'kysely';
import type { Database, UsersTable } from '../db/schema';

// A type alias, not an interface: withTables wants an index-signature-compatible record.
export type AuthTables = {
  user_passwords: {
    user_id: string;
    password_hash: string;
    /** ISO UTC timestamp. */
    updated_at: string;
  };
  api_keys: {
    key_id: string;
    user_id: string;
    secret_hash: string;
    label: string | null;
    created_at: string;
    last_used_at: string | null;
    revoked_at: string | null;
  };
};

export function authDb(db: Kysely<Database>): Kysely<Database & AuthTables> {
  return db.withTables<AuthTables>();
}

type ApiKeysTable = AuthTables['api_keys'];

const USER_COLUMNS = [
  'users.id',
  'users.username',
  'users.name',
  'users.role',
  'users.manager_id',
  'users.zone_code',
  'users.active',
] as const;

/** Usernames are stored lower-case (schema.ts), so the match ignores case. */
export async function userWithPassword(
  db: Kysely<Database>,
  username: string,
): Promise<{ user: UsersTable; passwordHash: string | null } | undefined> {
  const row = await authDb(db)
    .selectFrom('users')
    .leftJoin('user_passwords', 'user_passwords.user_id', 'users.id')
    .select([...USER_COLUMNS, 'user_passwords.password_hash'])
    .where('users.username', '=', username.toLowerCase())
    .executeTakeFirst();
  if (!row) return undefined;
  const { password_hash: passwordHash, ...user } = row;
  return { user, passwordHash };
}

export async function keyWithUser(
  db: Kysely<Database>,
  keyId: string,
): Promise<
  { user: UsersTable; key: Pick<ApiKeysTable, 'key_id' | 'secret_hash' | 'revoked_at' | 'last_used_at'> } | undefined
> {
  const row = await authDb(db)
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      ...USER_COLUMNS,
      'api_keys.key_id',
      'api_keys.secret_hash',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
    ])
    .where('api_keys.key_id', '=', keyId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { key_id, secret_hash, revoked_at, last_used_at, ...user } = row;
  return { user, key: { key_id, secret_hash, revoked_at, last_used_at } };
}

export async function touchKey(db: Kysely<Database>, keyId: string, now: string): Promise<void> {
  await authDb(db).updateTable('api_keys').set({ last_used_at: now }).where('key_id', '=', keyId).execute();
}

export async function storePassword(
  db: Kysely<Database>,
  userId: string,
  passwordHash: string,
  now: string,
): Promise<void> {
  await authDb(db)
    .insertInto('user_passwords')
    .values({ user_id: userId, password_hash: passwordHash, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: now }))
    .execute();
}

export async function insertKey(
  db: Kysely<Database>,
  key: Pick<ApiKeysTable, 'key_id' | 'user_id' | 'secret_hash' | 'label' | 'created_at'>,
): Promise<void> {
  await authDb(db).insertInto('api_keys').values(key).execute();
}

/** True when the key existed and was not yet revoked. */
export async function revokeKey(db: Kysely<Database>, keyId: string, now: string): Promise<boolean> {
  const result = await authDb(db)
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('key_id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type KeyListing = Omit<ApiKeysTable, 'secret_hash' | 'user_id'> & { username: string };

export async function listKeys(db: Kysely<Database>, username?: string): Promise<KeyListing[]> {
  let query = authDb(db)
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.key_id',
      'users.username',
      'api_keys.label',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
    ])
    .orderBy('users.username')
    .orderBy('api_keys.created_at')
    .orderBy('api_keys.key_id');
  if (username !== undefined) query = query.where('users.username', '=', username.toLowerCase());
  return query.execute();
}
