/**
 * SyncWarrantyReqList (docs/behaviour.md). The token is the change_seq of the last request returned;
 * writers commit in change_seq order (counters.ts), so following NextSince sees every change once.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { findUser } from '../users/hierarchy';
import { changedSince } from './repository';
import { syncView } from './request-view';
import { assertOfficerInScope, type OfficerBound } from '../users/principal-scope';

export type SyncPage = Awaited<ReturnType<typeof syncWarrantyRequests>>;

/**
 * Whose requests are listed, checked before anything is read: the bound, or the one officer named
 * (FORBIDDEN outside the bound); null for an unknown officer (a read: no requests, not an error).
 */
export async function syncOfficers(db: Kysely<Database>, salesOfficer: string | undefined, allowed?: OfficerBound): Promise<OfficerBound | null> {
  if (salesOfficer === undefined) return allowed;
  const officer = await findUser(db, salesOfficer);
  if (!officer) return null;
  assertOfficerInScope(allowed, officer.id, 'SalesOfficer');
  return [officer.id];
}

/** The page of the officers syncOfficers() gave; `since`: change_seq of the last change already seen, 0 = from the beginning. */
export async function syncWarrantyRequests(db: Kysely<Database>, input: { since: number; pageSize: number }, officers: OfficerBound | null) {
  if (officers === null) return { Requests: [], NextSince: String(input.since), HasMore: false };
  // One row more than the page tells whether another page follows.
  const rows = await changedSince(db, input.since, officers, input.pageSize + 1);
  const page = rows.slice(0, input.pageSize);
  return {
    Requests: page.map(syncView),
    NextSince: String(page.length > 0 ? Number(page[page.length - 1].change_seq) : input.since),
    HasMore: rows.length > input.pageSize,
  };
}
