/**
 * The result objects of the activities area, with the field names the app receives (docs/behaviour.md,
 * "Result format": PascalCase names, dates yyyy-MM-dd, timestamps ISO UTC).
 */
import type { ActivityStatus } from '../db/schema';
import { field, nullable, recordType, type FieldType } from '../operations/results';

export interface Activity {
  ActivityNo: string;
  ActivityDate: string;
  ActivityType: string;
  CustomerCode: string;
  CustomerName: string;
  SalesOfficer: string;
  Description: string;
  Status: ActivityStatus;
  DecidedBy: string | null;
  DecidedAt: string | null;
  Remarks: string | null;
}

export interface Complaint {
  ComplaintNo: string;
  ComplaintDate: string;
  CustomerCode: string;
  CustomerName: string;
  SalesOfficer: string;
  ProductCode: string;
  ProductName: string;
  Description: string;
  Status: 'OPEN' | 'RESOLVED';
}

export interface Enquiry {
  EnquiryNo: string;
  EnquiryDate: string;
  CustomerCode: string;
  SalesOfficer: string;
  Description: string;
  ActivityNo: string | null;
  OrderToCustomer: string | null;
  UpdatedAt: string;
}

// ---- the same, declared for the typed descriptions (docs/results.md) ------------------------------

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
