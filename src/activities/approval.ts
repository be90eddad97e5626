/**
 * ActivityApprovalRejection (docs/behaviour.md). An activity outside the user's scope is NOT_FOUND,
 * as if absent: the refusal would otherwise name its officer.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError, notFound } from '../errors';
import type { Clock } from '../operations/types';
import { findUser, isAbove, type User } from '../users/hierarchy';
import type { Activity } from './records';
import { decidePending, findActivity } from './repository';
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

/** The decided activity and the call's Message; deciding it again the same way changes nothing. */
export async function decideActivity(db: Kysely<Database>, clock: Clock, input: DecisionInput, allowed?: OfficerBound) {
  return db.transaction().execute(async (trx) => {
    const unknown = () => notFound('ActivityNo', `Activity '${input.activityNo}' does not exist`);
    const activity = await findActivity(trx, input.activityNo);
    if (!activity) throw unknown();
    assertVisible(allowed, activity.SalesOfficer, unknown);
    const user = await findUser(trx, input.approvedBy);
    if (!user) throw notFound('ApprovedBy', `User '${input.approvedBy}' does not exist`);
    await assertMayDecide(trx, user, activity);

    const status = OUTCOME[input.action];
    const decision = { status, decidedBy: user.id, decidedAt: clock.now().toISOString(), remarks: input.remarks ?? null };
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
