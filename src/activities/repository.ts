/**
 * Queries of the activities area (activities, complaints, enquiries) and their result objects, with the field names
 * the app receives (docs/behaviour.md, "Result format": PascalCase names, dates yyyy-MM-dd, timestamps ISO UTC).
 */
import type { Kysely } from 'kysely';
import type { ActivityStatus, Database } from '../db/schema';
import { documentNumberSpellings, preferredSpelling } from '../operations/master-codes';
import { field, nullable, recordType, type FieldType } from '../operations/results';

type Db = Kysely<Database>;

// ---- activities --------------------------------------------------------------------------------

function activities(db: Db) {
  return db
    .selectFrom('activities as a')
    .innerJoin('customers as c', 'c.code', 'a.customer_code')
    .select([
      'a.activity_no as ActivityNo',
      'a.activity_date as ActivityDate',
      'a.activity_type as ActivityType',
      'a.customer_code as CustomerCode',
      'c.name as CustomerName',
      'a.sales_officer_id as SalesOfficer',
      'a.description as Description',
      'a.status as Status',
      'a.decided_by as DecidedBy',
      'a.decided_at as DecidedAt',
      'a.remarks as Remarks',
    ]);
}

export async function findActivity(db: Db, activityNo: string) {
  const order = documentNumberSpellings(activityNo);
  const rows = await activities(db).where('a.activity_no', 'in', order).execute();
  return preferredSpelling(rows, order, (row) => row.ActivityNo);
}

export interface DecisionRow {
  status: Exclude<ActivityStatus, 'PENDING'>;
  decidedBy: string;
  decidedAt: string;
  remarks: string | null;
}

/**
 * Records a decision on a PENDING activity, the status guarded in the UPDATE: of two writers racing
 * on one activity exactly one changes the row. True when this call did.
 */
export async function decidePending(db: Db, activityNo: string, decision: DecisionRow): Promise<boolean> {
  const result = await db
    .updateTable('activities')
    .set({
      status: decision.status,
      decided_by: decision.decidedBy,
      decided_at: decision.decidedAt,
      remarks: decision.remarks,
    })
    .where('activity_no', '=', activityNo)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface ReportFilter {
  /** Officer ids (stored spelling); undefined = every officer. */
  officers?: readonly string[];
  from?: string;
  to?: string;
}

/** Where a page of activities or complaints ends: the date and number of its last row. */
export interface DatedKey {
  date: string;
  no: string;
}

/** Whether the filter can select nothing at all (an empty officer list). */
export function selectsNothing(filter: ReportFilter): boolean {
  return filter.officers?.length === 0;
}

/** Activities of the report, newest first; the number breaks ties so the order is stable. After a key: the next page. */
export function activitiesQuery(db: Db, filter: ReportFilter, after?: DatedKey) {
  let query = activities(db);
  if (filter.officers) query = query.where('a.sales_officer_id', 'in', filter.officers);
  if (filter.from !== undefined) query = query.where('a.activity_date', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('a.activity_date', '<=', filter.to);
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('a.activity_date', '<', after.date),
        eb.and([eb('a.activity_date', '=', after.date), eb('a.activity_no', '<', after.no)]),
      ]),
    );
  }
  return query.orderBy('a.activity_date', 'desc').orderBy('a.activity_no', 'desc');
}

// ---- complaints --------------------------------------------------------------------------------

/** Complaints of the report, newest first; the number breaks ties so the order is stable. After a key: the next page. */
export function complaintsQuery(db: Db, filter: ReportFilter, after?: DatedKey) {
  let query = db
    .selectFrom('complaints as k')
    .innerJoin('customers as c', 'c.code', 'k.customer_code')
    .innerJoin('products as p', 'p.code', 'k.product_code')
    .select([
      'k.complaint_no as ComplaintNo',
      'k.complaint_date as ComplaintDate',
      'k.customer_code as CustomerCode',
      'c.name as CustomerName',
      'k.sales_officer_id as SalesOfficer',
      'k.product_code as ProductCode',
      'p.name as ProductName',
      'k.description as Description',
      'k.status as Status',
    ]);
  if (filter.officers) query = query.where('k.sales_officer_id', 'in', filter.officers);
  if (filter.from !== undefined) query = query.where('k.complaint_date', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('k.complaint_date', '<=', filter.to);
  if (after !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('k.complaint_date', '<', after.date),
        eb.and([eb('k.complaint_date', '=', after.date), eb('k.complaint_no', '<', after.no)]),
      ]),
    );
  }
  return query.orderBy('k.complaint_date', 'desc').orderBy('k.complaint_no', 'desc');
}

// ---- enquiries ---------------------------------------------------------------------------------

export async function findEnquiry(db: Db, enquiryNo: string) {
  const order = documentNumberSpellings(enquiryNo);
  const rows = await db
    .selectFrom('enquiries')
    .select([
      'enquiry_no as EnquiryNo',
      'enquiry_date as EnquiryDate',
      'customer_code as CustomerCode',
      'sales_officer_id as SalesOfficer',
      'description as Description',
      'activity_no as ActivityNo',
      'order_to_customer as OrderToCustomer',
      'updated_at as UpdatedAt',
    ])
    .where('enquiry_no', 'in', order)
    .execute();
  return preferredSpelling(rows, order, (row) => row.EnquiryNo);
}

export interface EnquiryLinks {
  activityNo?: string;
  orderToCustomer?: string;
}

/**
 * Sets the given links. Only a row that would actually change is touched, so the same update again
 * leaves updated_at as it was (a retry changes nothing). True when the row changed.
 */
export async function linkEnquiry(db: Db, enquiryNo: string, links: EnquiryLinks, updatedAt: string): Promise<boolean> {
  const { activityNo, orderToCustomer } = links;
  const result = await db
    .updateTable('enquiries')
    .set({
      updated_at: updatedAt,
      ...(activityNo !== undefined ? { activity_no: activityNo } : {}),
      ...(orderToCustomer !== undefined ? { order_to_customer: orderToCustomer } : {}),
    })
    .where('enquiry_no', '=', enquiryNo)
    .where((eb) => {
      const changes = [];
      if (activityNo !== undefined) changes.push(eb('activity_no', 'is distinct from', activityNo));
      if (orderToCustomer !== undefined) changes.push(eb('order_to_customer', 'is distinct from', orderToCustomer));
      return eb.or(changes);
    })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

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
