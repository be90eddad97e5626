/**
 * Activities, complaints and enquiries written out row by row on top of the shared master data
 * (test/support/fixture.ts), so the tests of this area work out their expected answers from these
 * arrays.
 *
 *   reporting tree: ADM001 > ZM01 > AM01 > SO01, SO02, SO04;  ADM001 > ZM02 > AM02 > SO03
 *   customers: C001, C002 (SO01), C003 (SO02), C004, C005 (SO03)
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { CUSTOMERS, insertMasterData } from '../../test/support/fixture';

export const ACTIVITIES: Database['activities'][] = [
  pending('ACT001', '2026-06-01', 'VISIT', 'C001', 'SO01', 'Routine visit'),
  pending('ACT002', '2026-06-03', 'DEMO', 'C002', 'SO01', 'Pump demo at site'),
  {
    ...pending('ACT003', '2026-06-03', 'VISIT', 'C003', 'SO02', 'Visit with new catalogue'),
    status: 'APPROVED',
    decided_by: 'AM01',
    decided_at: '2026-06-04T09:00:00.000Z',
    remarks: 'Good visit',
  },
  {
    ...pending('ACT004', '2026-05-20', 'MEETING', 'C004', 'SO03', 'Quarterly meeting'),
    status: 'REJECTED',
    decided_by: 'AM02',
    decided_at: '2026-05-21T12:30:00.000Z',
    remarks: 'Duplicate entry',
  },
  pending('ACT005', '2026-06-10', 'SERVICE', 'C004', 'SO03', 'Motor service call'),
  pending('ACT006', '2026-06-03', 'COLLECTION', 'C001', 'SO01', 'Cheque pick-up'),
  pending('ACT007', '2026-05-31', 'VISIT', 'C001', 'AM01', 'Visit by the area manager'),
];

export const COMPLAINTS: Database['complaints'][] = [
  complaint('CMP001', '2026-06-02', 'C001', 'SO01', 'P001', 'Pump noisy', 'OPEN'),
  complaint('CMP002', '2026-06-05', 'C003', 'SO02', 'P003', 'Motor overheats', 'RESOLVED'),
  complaint('CMP003', '2026-05-28', 'C004', 'SO03', 'P004', 'Valve leaks', 'OPEN'),
  complaint('CMP004', '2026-06-05', 'C002', 'SO01', 'P002', 'Late delivery', 'OPEN'),
  complaint('CMP005', '2026-06-10', 'C002', 'SO01', 'P001', 'Seal worn out', 'RESOLVED'),
];

export const ENQUIRIES: Database['enquiries'][] = [
  enquiry('ENQ001', '2026-06-01', 'C001', 'SO01', 'Needs 10 pumps', null, null),
  enquiry('ENQ002', '2026-06-02', 'C003', 'SO02', 'Motor price list', 'ACT003', null),
  enquiry('ENQ003', '2026-06-04', 'C004', 'SO03', 'Valves for a project', null, 'C004'),
];

/** The master data of test/support/fixture.ts, then the activities, complaints and enquiries above. */
export async function insertActivityData(db: Kysely<Database>): Promise<void> {
  await insertMasterData(db);
  await db.insertInto('activities').values(ACTIVITIES).execute();
  await db.insertInto('complaints').values(COMPLAINTS).execute();
  await db.insertInto('enquiries').values(ENQUIRIES).execute();
}

export function pending(
  no: string,
  date: string,
  type: string,
  customer: string,
  officer: string,
  description: string,
): Database['activities'] {
  return {
    activity_no: no,
    activity_date: date,
    activity_type: type,
    customer_code: customer,
    sales_officer_id: officer,
    description,
    status: 'PENDING',
    decided_by: null,
    decided_at: null,
    remarks: null,
  };
}

/** A new PENDING activity `no` of `officer` at `customer`, stored, for a test that decides one. */
export async function insertPending(
  db: Kysely<Database>,
  no: string,
  officer: string,
  customer: string,
): Promise<Database['activities']> {
  const row = pending(no, '2026-06-12', 'VISIT', customer, officer, 'Visit to decide');
  await db.insertInto('activities').values(row).execute();
  return row;
}

/** A new unlinked enquiry `no` of `officer` at `customer`, stored, for a test that links one. */
export async function insertEnquiry(
  db: Kysely<Database>,
  no: string,
  officer: string,
  customer: string,
): Promise<Database['enquiries']> {
  const row = enquiry(no, '2026-06-11', customer, officer, 'Enquiry to link', null, null);
  await db.insertInto('enquiries').values(row).execute();
  return row;
}

/** The activity object the operations return for a stored row (docs/behaviour.md field names). */
export function activityObject(row: Database['activities']) {
  return {
    ActivityNo: row.activity_no,
    ActivityDate: row.activity_date,
    ActivityType: row.activity_type,
    CustomerCode: row.customer_code,
    CustomerName: CUSTOMERS.find((c) => c.code === row.customer_code)!.name,
    SalesOfficer: row.sales_officer_id,
    Description: row.description,
    Status: row.status,
    DecidedBy: row.decided_by,
    DecidedAt: row.decided_at,
    Remarks: row.remarks,
  };
}

function complaint(
  no: string,
  date: string,
  customer: string,
  officer: string,
  product: string,
  description: string,
  status: 'OPEN' | 'RESOLVED',
): Database['complaints'] {
  return {
    complaint_no: no,
    complaint_date: date,
    customer_code: customer,
    sales_officer_id: officer,
    product_code: product,
    description,
    status,
  };
}

function enquiry(
  no: string,
  date: string,
  customer: string,
  officer: string,
  description: string,
  activity: string | null,
  orderTo: string | null,
): Database['enquiries'] {
  return {
    enquiry_no: no,
    enquiry_date: date,
    customer_code: customer,
    sales_officer_id: officer,
    description,
    activity_no: activity,
    order_to_customer: orderTo,
    updated_at: '2026-06-04T08:00:00.000Z',
  };
}
