/**
 * ActivityReportAndComplaints (domain.md, "Reads"): the activities and complaints of one officer
 * (SalesOfficer) or of everyone a user sees (Username), in a date range, newest first, with a
 * Summary of both lists by status.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, notFound } from '../errors';
import { findUser, officerScope } from '../users/hierarchy';
import type { Activity, Complaint } from './records';
import { listActivities, listComplaints, userId, type ReportFilter } from './repository';

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

export async function activityReport(db: Kysely<Database>, input: ReportInput): Promise<ActivityReport> {
  const filter: ReportFilter = { officers: await officers(db, input), from: input.from, to: input.to };
  const [activities, complaints] = [await listActivities(db, filter), await listComplaints(db, filter)];
  return { Activities: activities, Complaints: complaints, Summary: summarise(activities, complaints) };
}

/**
 * The officers whose records are listed (undefined = all). An unknown SalesOfficer lists nothing
 * (a read: "not found" is an empty result); an unknown Username is NOT_FOUND, as for
 * FillAreaManagers, because the user, not a filter value, decides what may be seen.
 */
async function officers(db: Kysely<Database>, input: ReportInput): Promise<string[] | undefined> {
  const scope = input.username === undefined ? undefined : await scopeOf(db, input.username);
  if (input.salesOfficer === undefined) return scope;
  const officer = await userId(db, input.salesOfficer);
  if (officer === undefined) return [];
  if (scope !== undefined && !scope.includes(officer)) {
    throw new AppError('FORBIDDEN', `SalesOfficer ${officer} is not within the view of user '${input.username}'`, 'SalesOfficer');
  }
  return [officer];
}

async function scopeOf(db: Kysely<Database>, username: string): Promise<string[] | undefined> {
  const user = await findUser(db, username);
  if (!user) throw notFound('Username', `User '${username}' does not exist`);
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
