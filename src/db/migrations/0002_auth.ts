/** Passwords and API keys, beside `users` and not in it, so that the user row an operation reads never carries a secret. */
import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../engine';

export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  const s = db.schema;

  await s
    .createTable('user_passwords')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    /** scrypt$N$r$p$saltB64$hashB64 (src/auth/password-hash.ts). */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await s
    .createTable('api_keys')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** SHA-256 of the secret, hex (src/auth/api-key.ts). */
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .execute();
  await s.createIndex('api_keys_user').on('api_keys').column('user_id').execute();
}
