/**
 * The result objects of the activities area, with the field names the app receives (docs/behaviour.md,
 * "Result format": PascalCase names, dates yyyy-MM-dd, timestamps ISO UTC).
 */
import type { ActivityStatus } from '../db/schema';

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
