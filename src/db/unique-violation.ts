/**
 * Whether a database error is a unique-constraint violation, on either engine:
 * PostgreSQL reports SQLSTATE 23505, better-sqlite3 the extended code SQLITE_CONSTRAINT_UNIQUE.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
