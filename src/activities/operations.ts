/** Operations of this business area (domain.md). */
import type { Operation } from '../operations/types';

export const activityApprovalRejection: Operation = {
  name: 'ActivityApprovalRejection',
  params: [],
  fields: ['ActivityNo', 'Action', 'ApprovedBy', 'Remarks'],
  acceptsFiles: false,
  kind: 'write',
  async run() {
    throw new Error('ActivityApprovalRejection is being built');
  },
};

export const activityReportAndComplaints: Operation = {
  name: 'ActivityReportAndComplaints',
  params: [],
  fields: ['SalesOfficer', 'Username', 'FromDate', 'ToDate'],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('ActivityReportAndComplaints is being built');
  },
};

export const updateActivityNoAndOrderToCustInEnquiryMst: Operation = {
  name: 'UpdateActivityNoAndOrderToCustInEnquiryMst',
  params: [],
  fields: ['EnquiryNo', 'ActivityNo', 'OrderToCustomer'],
  acceptsFiles: false,
  kind: 'write',
  async run() {
    throw new Error('UpdateActivityNoAndOrderToCustInEnquiryMst is being built');
  },
};

export const activitiesOperations: readonly Operation[] = [activityApprovalRejection, activityReportAndComplaints, updateActivityNoAndOrderToCustInEnquiryMst];
