/** The officers' field work (docs/architecture.md, "The data"): activities, enquiries and complaints. */
import {
  CODE,
  DATE,
  LONG,
  SHORT,
  TIMESTAMP,
  enumOf,
  optional,
  PARTY,
  ref,
  required,
  type TableSpec,
} from '../table-spec';

export const activities: TableSpec = {
  table: 'activities',
  key: ['activity_no'],
  columns: [
    required('activity_no', CODE),
    required('activity_date', DATE),
    // VISIT, DEMO, MEETING, COLLECTION, SERVICE in the legacy data; the schema keeps it open (schema.ts).
    required('activity_type', SHORT),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('description', LONG),
    required('status', enumOf(['PENDING', 'APPROVED', 'REJECTED'])),
    optional('decided_by', CODE),
    optional('decided_at', TIMESTAMP),
    optional('remarks', LONG),
  ],
  references: [...PARTY, ref('decided_by', 'users', 'id')],
};

/**
 * updated_at, when the export has none, is the enquiry date at midnight UTC: a value that depends on
 * the row alone, so importing the same file twice stores the same thing.
 */
export const enquiries: TableSpec = {
  table: 'enquiries',
  key: ['enquiry_no'],
  columns: [
    required('enquiry_no', CODE),
    required('enquiry_date', DATE),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('description', LONG),
    optional('activity_no', CODE),
    optional('order_to_customer', CODE),
    optional('updated_at', TIMESTAMP, (row) => `${row.enquiry_date}T00:00:00.000Z`),
  ],
  references: [
    ...PARTY,
    ref('activity_no', 'activities', 'activity_no'),
    ref('order_to_customer', 'customers', 'code'),
  ],
};

export const complaints: TableSpec = {
  table: 'complaints',
  key: ['complaint_no'],
  columns: [
    required('complaint_no', CODE),
    required('complaint_date', DATE),
    required('customer_code', CODE),
    required('sales_officer_id', CODE),
    required('product_code', CODE),
    required('description', LONG),
    required('status', enumOf(['OPEN', 'RESOLVED'])),
  ],
  references: [...PARTY, ref('product_code', 'products', 'code')],
};
