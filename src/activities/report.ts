/**
 * ActivityReportAndComplaints (docs/behaviour.md): streamed, both lists read with cursors in one
 * snapshot and the Summary counted as they pass; a page's Summary counts that page's rows.
 */
import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, notFound } from '../errors';
import { findUser, officerScope } from '../users/hierarchy';
import { storedUserId } from '../operations/master-codes';
import { activitiesQuery, complaintsQuery, selectsNothing, type DatedKey, type ReportFilter } from './repository';
import {
  cutPage,
  encodePageToken,
  keyDate,
  keyText,
  keyTuple,
  type KeyPart,
  type PageRequest,
} from '../operations/paging';
import { rowBatches, StreamedData, streamedResult, type StreamedJson, type Streams } from '../operations/streamed';
import type { OperationResult } from '../operations/types';
import { assertOfficerInScope, assertVisible, intersectOfficers, type OfficerBound } from '../users/principal-scope';

/** The officers asked for: SalesOfficer and Username as typed. */
export interface ReportInput {
  salesOfficer?: string;
  username?: string;
}

/** Where each list of a page ends: before its first row (null), after a key, or at its end. */
export type ReportPosition = null | DatedKey | 'end';
/** A page token's key: where the activities and the complaints stopped. */
export type ReportPageKey = [activities: ReportPosition, complaints: ReportPosition];

/** The report of the officers reportOfficers() gave: one page (PageSize/PageToken), or the whole report, streamed when the caller takes streams. */
export async function activityReport(
  db: Kysely<Database>,
  filter: ReportFilter,
  page?: PageRequest<ReportPageKey>,
  streams?: Streams,
): Promise<OperationResult> {
  if (page) return reportPage(db, filter, page);
  return streamedResult(db, streams, (trx, end) => {
    const summary = new SummaryCounter();
    const list = <R extends { Status: string }>(query: () => Compilable<R>): StreamedJson => ({
      kind: 'rows',
      rows: () => rowBatches(trx, selectsNothing(filter) ? undefined : query(), summary.count),
    });
    const body: StreamedJson = {
      kind: 'object',
      members: [
        ['Activities', list(() => activitiesQuery(trx, filter))],
        ['Complaints', list(() => complaintsQuery(trx, filter))],
        ['Summary', { kind: 'value', value: () => summary.result() }],
      ],
    };
    return new StreamedData(body, undefined, undefined, end);
  });
}

/** Up to PageSize rows of each list after the token's positions; NextPageToken null once both lists are done. */
async function reportPage(
  db: Kysely<Database>,
  filter: ReportFilter,
  request: PageRequest<ReportPageKey>,
): Promise<OperationResult> {
  const [activitiesAfter, complaintsAfter] = request.after ?? [null, null];
  const activities = await pageOf(
    activitiesAfter,
    filter,
    request.size,
    (key) =>
      activitiesQuery(db, filter, key)
        .limit(request.size + 1)
        .execute(),
    (a) => ({ date: a.ActivityDate, no: a.ActivityNo }),
  );
  const complaints = await pageOf(
    complaintsAfter,
    filter,
    request.size,
    (key) =>
      complaintsQuery(db, filter, key)
        .limit(request.size + 1)
        .execute(),
    (c) => ({ date: c.ComplaintDate, no: c.ComplaintNo }),
  );
  const next: ReportPageKey = [activities.next, complaints.next];
  const done = next[0] === 'end' && next[1] === 'end';
  const summary = new SummaryCounter();
  const data = {
    Activities: activities.rows.map(summary.count),
    Complaints: complaints.rows.map(summary.count),
    Summary: summary.result(),
  };
  return { data, nextPageToken: done ? null : encodePageToken(next) };
}

async function pageOf<R>(
  position: ReportPosition,
  filter: ReportFilter,
  size: number,
  read: (after: DatedKey | undefined) => Promise<R[]>,
  keyOf: (row: R) => DatedKey,
): Promise<{ rows: R[]; next: ReportPosition }> {
  if (position === 'end' || selectsNothing(filter)) return { rows: [], next: 'end' };
  const page = cutPage(await read(position ?? undefined), size, keyOf);
  return { rows: page.rows, next: page.next ?? 'end' };
}

/** Where a list stopped: not begun (null), at its end, or after a row's date and number ({ date, no }). */
const position: KeyPart<ReportPosition> = (value) => {
  if (value === null || value === 'end') return value;
  if (typeof value !== 'object' || Array.isArray(value) || Object.keys(value).sort().join() !== 'date,no')
    return undefined;
  const { date, no } = value as Record<string, unknown>;
  const key = { date: keyDate(date), no: keyText(no) };
  return key.date !== undefined && key.no !== undefined ? (key as DatedKey) : undefined;
};

/** Reads an ActivityReportAndComplaints token's key back; undefined when it is not one. */
export const readReportKey = keyTuple<ReportPageKey>(position, position);

/**
 * The officers the report lists (undefined = all), checked before anything is read: NOT_FOUND for an
 * unknown Username or one outside the bound (the user, not a filter value, decides what may be seen),
 * FORBIDDEN for a SalesOfficer outside the bound; an unknown SalesOfficer lists nothing.
 */
export async function reportOfficers(
  db: Kysely<Database>,
  input: ReportInput,
  allowed?: OfficerBound,
): Promise<OfficerBound> {
  const scope = input.username === undefined ? undefined : await scopeOf(db, input.username, allowed);
  if (input.salesOfficer === undefined) return intersectOfficers(scope, allowed);
  const officer = await storedUserId(db, input.salesOfficer);
  if (officer === undefined) return [];
  assertOfficerInScope(allowed, officer, 'SalesOfficer');
  if (scope !== undefined && !scope.includes(officer)) {
    throw new AppError(
      'FORBIDDEN',
      `SalesOfficer ${officer} is not within the view of user '${input.username}'`,
      'SalesOfficer',
    );
  }
  return [officer];
}

async function scopeOf(db: Kysely<Database>, username: string, allowed: OfficerBound): Promise<string[] | undefined> {
  const user = await findUser(db, username);
  const unknown = () => notFound('Username', `User '${username}' does not exist`);
  if (!user) throw unknown();
  assertVisible(allowed, user.id, unknown);
  return officerScope(db, user);
}

/** The Summary of the rows seen as they pass. */
class SummaryCounter {
  private readonly seen = { activities: new Map<string, number>(), complaints: new Map<string, number>() };

  readonly count = <R extends { Status: string }>(row: R): R => {
    const counts = 'ActivityNo' in row ? this.seen.activities : this.seen.complaints;
    counts.set(row.Status, (counts.get(row.Status) ?? 0) + 1);
    return row;
  };

  result() {
    const { activities: a, complaints: k } = this.seen;
    const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
    return {
      ActivityCount: total(a),
      PendingActivities: a.get('PENDING') ?? 0,
      ApprovedActivities: a.get('APPROVED') ?? 0,
      RejectedActivities: a.get('REJECTED') ?? 0,
      ComplaintCount: total(k),
      OpenComplaints: k.get('OPEN') ?? 0,
      ResolvedComplaints: k.get('RESOLVED') ?? 0,
    };
  }
}
