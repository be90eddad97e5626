/**
 * The result objects of the activities area, with the field names the app receives (docs/behaviour.md,
 * "Result format": PascalCase names, dates yyyy-MM-dd, timestamps ISO UTC).
 */
import { field, nullable, recordType, type FieldType } from '../operations/results';
import type { complaintsQuery, findActivity, findEnquiry } from './repository';

/** The rows as the queries select them (repository.ts). */
export type Activity = NonNullable<Awaited<ReturnType<typeof findActivity>>>;
export type Complaint = Awaited<ReturnType<ReturnType<typeof complaintsQuery>['execute']>>[number];
export type Enquiry = NonNullable<Awaited<ReturnType<typeof findEnquiry>>>;

// ---- declared for the typed descriptions (docs/results.md) -------------------------------------

export const ACTIVITY_TYPE = recordType('Activity', {
  ActivityNo: field.string,
  ActivityDate: field.date,
  ActivityType: field.string,
  CustomerCode: field.string,
  CustomerName: field.string,
  SalesOfficer: field.string,
  Description: field.string,
  Status: field.string,
  DecidedBy: nullable(field.string),
  DecidedAt: nullable(field.dateTime),
  Remarks: nullable(field.string),
} satisfies Record<keyof Activity, FieldType>);

export const COMPLAINT_TYPE = recordType('Complaint', {
  ComplaintNo: field.string,
  ComplaintDate: field.date,
  CustomerCode: field.string,
  CustomerName: field.string,
  SalesOfficer: field.string,
  ProductCode: field.string,
  ProductName: field.string,
  Description: field.string,
  Status: field.string,
} satisfies Record<keyof Complaint, FieldType>);

export const ENQUIRY_TYPE = recordType('Enquiry', {
  EnquiryNo: field.string,
  EnquiryDate: field.date,
  CustomerCode: field.string,
  SalesOfficer: field.string,
  Description: field.string,
  ActivityNo: nullable(field.string),
  OrderToCustomer: nullable(field.string),
  UpdatedAt: field.dateTime,
} satisfies Record<keyof Enquiry, FieldType>);
