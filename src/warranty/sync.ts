/**
 * SyncWarrantyReqList (domain.md): the warranty requests changed after a Since token, oldest change
 * first, a page at a time. The token is the change_seq of the last request returned; because warranty
 * writers commit in change_seq order (counters.ts), a reader that follows NextSince sees every change
 * exactly once: nothing can later commit below a position it has already passed.
 * With an authenticated user, only requests whose officer is within their scope are listed, and a
 * SalesOfficer outside it is FORBIDDEN (principal-scope.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { findUser } from '../users/hierarchy';
import { changedSince } from './repository';
import { syncView, type WarrantyRequestView } from './request-view';
import { assertOfficerInScope, type OfficerBound } from '../users/principal-scope';

export interface SyncInput {
  /** Only this officer's requests (id or username, any case); undefined = everyone's. */
  salesOfficer?: string;
  /** change_seq of the last change already seen; 0 = from the beginning. */
  since: number;
  pageSize: number;
}

export interface SyncPage {
  Requests: Array<WarrantyRequestView & { FileCount: number }>;
  /** The token to send as Since next time. */
  NextSince: string;
  HasMore: boolean;
}

export async function syncWarrantyRequests(db: Kysely<Database>, input: SyncInput, allowed?: OfficerBound): Promise<SyncPage> {
  let officers: OfficerBound = allowed;
  if (input.salesOfficer !== undefined) {
    const officer = await findUser(db, input.salesOfficer);
    // A read: an unknown officer has no requests (domain-wide convention), not an error.
    if (!officer) return { Requests: [], NextSince: String(input.since), HasMore: false };
    assertOfficerInScope(allowed, officer.id, 'SalesOfficer');
    officers = [officer.id];
  }
  // One row more than the page tells whether another page follows.
  const rows = await changedSince(db, input.since, officers, input.pageSize + 1);
  const page = rows.slice(0, input.pageSize);
  return {
    Requests: page.map(syncView),
    NextSince: String(page.length > 0 ? Number(page[page.length - 1].change_seq) : input.since),
    HasMore: rows.length > input.pageSize,
  };
}
