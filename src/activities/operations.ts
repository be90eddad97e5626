/** Operations of the activities area (docs/behaviour.md): they parse the fields and call the modules beside them. */
import { AppError, invalid, missing } from '../errors';
import type { UsersTable } from '../db/schema';
import { allowedOfficers, outsideScope } from '../users/principal-scope';
import { boundedText, dateRange, required, type Fields } from '../operations/parse';
import { readOperation, writeOperation, type Operation, type OperationResult } from '../operations/types';
import { decideActivity, linkEnquiryTo, type Action, type DecisionInput, type EnquiryLinkInput } from './writes';
import { activityReport, readReportKey, reportOfficers } from './report';
import { PAGE_FIELDS, pageRequest } from '../operations/paging';
import { field, record, recordType } from '../operations/results';
import { ACTIVITY_TYPE, COMPLAINT_TYPE, ENQUIRY_TYPE } from './repository';

const ACTIVITY_REPORT_RESULT = record(
  recordType('ActivityReport', {
    Activities: { list: ACTIVITY_TYPE },
    Complaints: { list: COMPLAINT_TYPE },
    Summary: {
      record: recordType('ActivityReportSummary', {
        ActivityCount: field.integer,
        PendingActivities: field.integer,
        ApprovedActivities: field.integer,
        RejectedActivities: field.integer,
        ComplaintCount: field.integer,
        OpenComplaints: field.integer,
        ResolvedComplaints: field.integer,
      }),
    },
  }),
  { pageable: true },
);

/** Document numbers, codes and user names are short; longer input is refused before any query. */
const MAX_KEY_LENGTH = 64;
const MAX_REMARKS_LENGTH = 1000;

/**
 * docs/behaviour.md, "Result format": a write that carries no input at all does nothing and succeeds. The
 * service object answers such calls before they get here; the operation keeps the rule on its own too.
 */
function noInput(): OperationResult {
  return { data: null, message: 'No input was given: nothing was changed.' };
}

function carriesNoInput(fields: Fields): boolean {
  return Object.values(fields).every((value) => value === undefined || value.trim() === '');
}

function key<N extends string>(fields: Fields<N>, name: NoInfer<N>): string | undefined {
  return boundedText(fields, name, MAX_KEY_LENGTH);
}

// ---- ActivityApprovalRejection -------------------------------------------------------------------

export const ACTIONS: Readonly<Record<string, Action>> = {
  APPROVE: 'APPROVE',
  A: 'APPROVE',
  APPROVED: 'APPROVE',
  REJECT: 'REJECT',
  R: 'REJECT',
  REJECTED: 'REJECT',
};

function action(value: string): Action {
  const match = ACTIONS[value.toUpperCase()];
  if (match === undefined) {
    throw invalid(
      'Action',
      `'${value}' is not an action (use APPROVE or REJECT; also A or R, APPROVED or REJECTED, in any case)`,
    );
  }
  return match;
}

const DECISION_FIELDS = ['ActivityNo', 'Action', 'ApprovedBy', 'Remarks'] as const;
type DecisionField = (typeof DECISION_FIELDS)[number];

/**
 * ActivityNo, Action and ApprovedBy are required, in that order; Remarks only to reject. With an
 * authenticated user the decider is that user: ApprovedBy may be left out, and naming anyone else
 * (by id or username) is FORBIDDEN.
 */
function decisionInput(fields: Fields<DecisionField>, principal: UsersTable | undefined): DecisionInput {
  const activityNo = required(fields, 'ActivityNo', MAX_KEY_LENGTH);
  const actionText = required(fields, 'Action');
  const approvedBy =
    principal === undefined ? required(fields, 'ApprovedBy', MAX_KEY_LENGTH) : principalAsDecider(fields, principal);
  const decided = action(actionText);
  const remarks = boundedText(fields, 'Remarks', MAX_REMARKS_LENGTH);
  if (decided === 'REJECT' && remarks === undefined) throw missing('Remarks');
  return { activityNo, action: decided, approvedBy, remarks };
}

function principalAsDecider(fields: Fields<'ApprovedBy'>, principal: UsersTable): string {
  const named = key(fields, 'ApprovedBy');
  if (
    named !== undefined &&
    named.toLowerCase() !== principal.id.toLowerCase() &&
    named.toLowerCase() !== principal.username
  ) {
    throw outsideScope('ApprovedBy', `a decision in the name of '${named}'`);
  }
  return principal.id;
}

export const activityApprovalRejection = writeOperation({
  name: 'ActivityApprovalRejection',
  params: [],
  fields: DECISION_FIELDS,
  returns: record(ACTIVITY_TYPE),
  async run({ fields }, ctx) {
    if (carriesNoInput(fields)) return noInput();
    return decideActivity(ctx.db, ctx.clock, decisionInput(fields, ctx.principal), await allowedOfficers(ctx));
  },
});

// ---- ActivityReportAndComplaints ---------------------------------------------------------------

export const activityReportAndComplaints = readOperation({
  name: 'ActivityReportAndComplaints',
  params: [],
  fields: ['SalesOfficer', 'Username', 'FromDate', 'ToDate', ...PAGE_FIELDS],
  returns: ACTIVITY_REPORT_RESULT,
  async prepare({ fields }, ctx) {
    const salesOfficer = key(fields, 'SalesOfficer');
    const username = key(fields, 'Username');
    const { from, to } = dateRange(fields, 'FromDate', 'ToDate', ctx.settings.dateOrder);
    const page = pageRequest(fields, readReportKey);
    const officers = await reportOfficers(ctx.db, { salesOfficer, username }, await allowedOfficers(ctx));
    return { filter: { officers, from, to }, page };
  },
  read: ({ filter, page }, ctx) => activityReport(ctx.db, filter, page, ctx.streams),
});

// ---- UpdateActivityNoAndOrderToCustInEnquiryMst --------------------------------------------------

const ENQUIRY_LINK_FIELDS = ['EnquiryNo', 'ActivityNo', 'OrderToCustomer'] as const;

/** EnquiryNo is required, and at least one of ActivityNo and OrderToCustomer. */
function enquiryLinkInput(fields: Fields<(typeof ENQUIRY_LINK_FIELDS)[number]>): EnquiryLinkInput {
  const enquiryNo = required(fields, 'EnquiryNo', MAX_KEY_LENGTH);
  const activityNo = key(fields, 'ActivityNo');
  const orderToCustomer = key(fields, 'OrderToCustomer');
  if (activityNo === undefined && orderToCustomer === undefined) {
    throw new AppError('MISSING_PARAMETER', 'ActivityNo or OrderToCustomer is required', 'ActivityNo');
  }
  return { enquiryNo, activityNo, orderToCustomer };
}

export const updateActivityNoAndOrderToCustInEnquiryMst = writeOperation({
  name: 'UpdateActivityNoAndOrderToCustInEnquiryMst',
  params: [],
  fields: ENQUIRY_LINK_FIELDS,
  returns: record(ENQUIRY_TYPE),
  async run({ fields }, ctx) {
    if (carriesNoInput(fields)) return noInput();
    return linkEnquiryTo(ctx.db, ctx.clock, enquiryLinkInput(fields), await allowedOfficers(ctx));
  },
});

export const activitiesOperations: readonly Operation[] = [
  activityApprovalRejection,
  activityReportAndComplaints,
  updateActivityNoAndOrderToCustInEnquiryMst,
];
