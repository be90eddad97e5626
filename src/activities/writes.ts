/**
 * The activities area's writes (docs/behaviour.md). A record outside the user's scope is NOT_FOUND, as if absent:
 * the refusal would otherwise name its officer. The customer an enquiry's order went to is not bounded by the
 * scope: a lead may turn into an order for another officer's dealer.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, invalid, notFound } from '../errors';
import { storedCustomerCode } from '../operations/master-codes';
import type { Clock } from '../operations/types';
import { findUser, isAbove, type User } from '../users/hierarchy';
import {
  decidePending,
  findActivity,
  findEnquiry,
  linkEnquiry,
  type Activity,
  type EnquiryLinks,
  type Enquiry,
} from './repository';
import { assertVisible, type OfficerBound } from '../users/principal-scope';

export type Action = 'APPROVE' | 'REJECT';

export interface DecisionInput {
  activityNo: string;
  action: Action;
  /** A user id or username. */
  approvedBy: string;
  remarks?: string;
}

const OUTCOME = { APPROVE: 'APPROVED', REJECT: 'REJECTED' } as const;

/** ActivityApprovalRejection: the decided activity and the call's Message; deciding it again the same way changes nothing. */
export async function decideActivity(db: Kysely<Database>, clock: Clock, input: DecisionInput, allowed?: OfficerBound) {
  return db.transaction().execute(async (trx) => {
    const activity = await visibleActivity(trx, input.activityNo, allowed);
    const user = await findUser(trx, input.approvedBy);
    if (!user) throw notFound('ApprovedBy', `User '${input.approvedBy}' does not exist`);
    await assertMayDecide(trx, user, activity);

    const status = OUTCOME[input.action];
    const decision = {
      status,
      decidedBy: user.id,
      decidedAt: clock.now().toISOString(),
      remarks: input.remarks ?? null,
    };
    const changed = await decidePending(trx, activity.ActivityNo, decision);
    // Re-read in both cases: after a lost race the row holds the winner's decision.
    const stored = (await findActivity(trx, activity.ActivityNo))!;
    if (!changed && stored.Status !== status) throw decidedOtherwise(stored, input.action);
    return { data: stored, message: decisionMessage(stored, changed) };
  });
}

/** Only a manager above the activity's officer, or an ADMIN, decides; an inactive user decides nothing. */
async function assertMayDecide(db: Kysely<Database>, user: User, activity: Activity): Promise<void> {
  if (!user.active) {
    throw new AppError('FORBIDDEN', `User ${user.id} is not active and may not decide activities`, 'ApprovedBy');
  }
  if (user.role === 'ADMIN' || (await isAbove(db, user.id, activity.SalesOfficer))) return;
  throw new AppError(
    'FORBIDDEN',
    `User ${user.id} is not a manager of ${activity.SalesOfficer} and may not decide activity ${activity.ActivityNo}`,
    'ApprovedBy',
  );
}

function decidedOtherwise(stored: Activity, action: Action): AppError {
  const wanted = action === 'APPROVE' ? 'approved' : 'rejected';
  return new AppError(
    'INVALID_STATE',
    `Activity ${stored.ActivityNo} was already ${stored.Status.toLowerCase()} by ${stored.DecidedBy} at ${stored.DecidedAt}; it cannot be ${wanted}`,
    'ActivityNo',
  );
}

function decisionMessage(activity: Activity, changed: boolean): string {
  const status = activity.Status.toLowerCase();
  if (changed) return `Activity ${activity.ActivityNo} ${status}.`;
  return `Activity ${activity.ActivityNo} was already ${status} by ${activity.DecidedBy} at ${activity.DecidedAt}; nothing was changed.`;
}

export interface EnquiryLinkInput extends EnquiryLinks {
  enquiryNo: string;
}

/** UpdateActivityNoAndOrderToCustInEnquiryMst: the linked enquiry and the call's Message; the same links again change nothing. */
export async function linkEnquiryTo(
  db: Kysely<Database>,
  clock: Clock,
  input: EnquiryLinkInput,
  allowed?: OfficerBound,
) {
  return db.transaction().execute(async (trx) => {
    const enquiry = visible(await findEnquiry(trx, input.enquiryNo), allowed, () =>
      notFound('EnquiryNo', `Enquiry '${input.enquiryNo}' does not exist`),
    );
    const links: EnquiryLinks = {
      activityNo:
        input.activityNo === undefined ? undefined : await activityOf(trx, enquiry, input.activityNo, allowed),
      orderToCustomer:
        input.orderToCustomer === undefined ? undefined : await existingCustomer(trx, input.orderToCustomer),
    };
    const changed = await linkEnquiry(trx, enquiry.EnquiryNo, links, clock.now().toISOString());
    const linked = (await findEnquiry(trx, enquiry.EnquiryNo))!;
    const message = changed
      ? `Enquiry ${linked.EnquiryNo} updated.`
      : `Enquiry ${linked.EnquiryNo} already carried these links; nothing was changed.`;
    return { data: linked, message };
  });
}

/**
 * The stored number of the activity. An enquiry arises from a visit or demo at its own customer, so
 * an activity of another customer is refused rather than linked by mistake.
 */
async function activityOf(
  db: Kysely<Database>,
  enquiry: Enquiry,
  activityNo: string,
  allowed: OfficerBound,
): Promise<string> {
  const activity = await visibleActivity(db, activityNo, allowed);
  if (activity.CustomerCode !== enquiry.CustomerCode) {
    throw invalid(
      'ActivityNo',
      `activity ${activity.ActivityNo} belongs to customer ${activity.CustomerCode}, enquiry ${enquiry.EnquiryNo} to customer ${enquiry.CustomerCode}`,
    );
  }
  return activity.ActivityNo;
}

async function existingCustomer(db: Kysely<Database>, code: string): Promise<string> {
  const stored = await storedCustomerCode(db, code);
  if (stored === undefined) throw notFound('OrderToCustomer', `Customer '${code}' does not exist`);
  return stored;
}

/** The stored activity, unless it is absent or outside the bound: NOT_FOUND naming ActivityNo either way. */
async function visibleActivity(db: Kysely<Database>, activityNo: string, allowed: OfficerBound): Promise<Activity> {
  return visible(await findActivity(db, activityNo), allowed, () =>
    notFound('ActivityNo', `Activity '${activityNo}' does not exist`),
  );
}

/** The row, unless it is absent or its officer is outside the bound: `unknown` either way. */
function visible<T extends { SalesOfficer: string }>(
  row: T | undefined,
  allowed: OfficerBound,
  unknown: () => AppError,
): T {
  if (!row) throw unknown();
  assertVisible(allowed, row.SalesOfficer, unknown);
  return row;
}
