/**
 * ActivityReportAndComplaints (domain.md, "Reads"): the activities and complaints of one officer
 * (SalesOfficer) or of everyone a user sees (Username), in a date range, newest first, with a
 * Summary of both lists by status.
 * With an authenticated user (principal-scope.ts) the lists never go beyond the officers within their
 * scope; a SalesOfficer or Username outside it is FORBIDDEN.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, notFound } from '../errors';
import { findUser, officerScope } from '../users/hierarchy';
import type { Activity, Complaint } from './records';
import { storedUserId } from '../operations/master-codes';
import { listActivities, listComplaints, type ReportFilter } from './repository';
import { assertOfficerInScope, intersectOfficers, type OfficerBound } from '../users/principal-scope';

export interface ReportInput {
  salesOfficer?: string;
  username?: string;
  from?: string;
  to?: string;
}

export interface ReportSummary {
  ActivityCount: number;
  PendingActivities: number;
  ApprovedActivities: number;
  RejectedActivities: number;
  ComplaintCount: number;
  OpenComplaints: number;
  ResolvedComplaints: number;
}

export interface ActivityReport {
  Activities: Activity[];
  Complaints: Complaint[];
  Summary: ReportSummary;
}

export async function activityReport(db: Kysely<Database>, input: ReportInput, allowed?: OfficerBound): Promise<ActivityReport> {
  const filter: ReportFilter = { officers: intersectOfficers(await officers(db, input, allowed), allowed), from: input.from, to: input.to };
  const [activities, complaints] = [await listActivities(db, filter), await listComplaints(db, filter)];
  return { Activities: activities, Complaints: complaints, Summary: summarise(activities, complaints) };
}

/**
 * The officers whose records are listed (undefined = all). An unknown SalesOfficer lists nothing
 * (a read: "not found" is an empty result); an unknown Username is NOT_FOUND, as for
 * FillAreaManagers, because the user, not a filter value, decides what may be seen.
 */
async function officers(db: Kysely<Database>, input: ReportInput, allowed: OfficerBound): Promise<string[] | undefined> {
  const scope = input.username === undefined ? undefined : await scopeOf(db, input.username, allowed);
  if (input.salesOfficer === undefined) return scope;
  const officer = await storedUserId(db, input.salesOfficer);
  if (officer === undefined) return [];
  assertOfficerInScope(allowed, officer, 'SalesOfficer');
  if (scope !== undefined && !scope.includes(officer)) {
    throw new AppError('FORBIDDEN', `SalesOfficer ${officer} is not within the view of user '${input.username}'`, 'SalesOfficer');
  }
  return [officer];
}

async function scopeOf(db: Kysely<Database>, username: string, allowed: OfficerBound): Promise<string[] | undefined> {
  const user = await findUser(db, username);
  if (!user) throw notFound('Username', `User '${username}' does not exist`);
  assertOfficerInScope(allowed, user.id, 'Username');
  return officerScope(db, user);
}

function summarise(activities: Activity[], complaints: Complaint[]): ReportSummary {
  const count = <T extends { Status: string }>(rows: T[], status: string) => rows.filter((row) => row.Status === status).length;
  return {
    ActivityCount: activities.length,
    PendingActivities: count(activities, 'PENDING'),
    ApprovedActivities: count(activities, 'APPROVED'),
    RejectedActivities: count(activities, 'REJECTED'),
    ComplaintCount: complaints.length,
    OpenComplaints: count(complaints, 'OPEN'),
    ResolvedComplaints: count(complaints, 'RESOLVED'),
  };
}
