/** The credential tables, typed here and not in src/db/schema.ts so that no other code reads a secret by accident. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

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
