/**
 * Calls of every main-service operation on the demo data (any scale) that reach every shape of answer:
 * lists with rows and empty ones, pages, objects and null Data, writes with and without input, and
 * business failures. The codes are read from the database itself. The writes can be repeated with the
 * same answer Data (a ClientRequestId replays, a second identical decision or link changes nothing), so
 * one table serves suites that send each call over several bindings. npm run read-tables runs the reads
 * (scripts/read-tables.ts), the tests all of them.
 */
import type { Kysely } from 'kysely';
import type { Database, Role } from '../db/schema';

/** The id of the first user of `role` on the demo data: the officer or manager the calls and benchmarks name. */
export async function firstUserOf(db: Kysely<Database>, role: Role): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', role)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return user.id;
}

/** An operation's named values, as a binding hands them over. */
export type Fields = Record<string, string>;

export async function demoDataCalls(db: Kysely<Database>): Promise<Record<string, Fields[]>> {
  const cheque = await db.selectFrom('pcn').select(['pdc_id', 'pcn_no']).orderBy('pdc_id').executeTakeFirstOrThrow();
  const withDebitNote = await db
    .selectFrom('pcn_debit_notes')
    .select('pcn_no')
    .orderBy('pcn_no')
    .executeTakeFirstOrThrow();
  const officer = await firstUserOf(db, 'SO');
  const manager = await firstUserOf(db, 'ZM');
  const customer = await db
    .selectFrom('customers')
    .select(['code', 'sales_officer_id'])
    .where('sales_officer_id', '=', officer)
    .orderBy('code')
    .executeTakeFirstOrThrow();
  const withFiles = await db
    .selectFrom('warranty_files')
    .select('request_no')
    .orderBy('request_no')
    .executeTakeFirstOrThrow();
  const submitted = await db
    .selectFrom('warranty_requests')
    .select('request_no')
    .where('status', '=', 'SUBMITTED')
    .orderBy('request_no')
    .executeTakeFirstOrThrow();
  const pending = await db
    .selectFrom('activities')
    .select('activity_no')
    .where('status', '=', 'PENDING')
    .orderBy('activity_no')
    .executeTakeFirstOrThrow();
  const enquiry = await db
    .selectFrom('enquiries')
    .select(['enquiry_no', 'customer_code'])
    .orderBy('enquiry_no')
    .executeTakeFirstOrThrow();
  const product = await db.selectFrom('products').select('code').orderBy('code').executeTakeFirstOrThrow();
  const bad: Fields = { FromDate: '31/02/2026' };
  const reports: Fields[] = [
    {},
    { FromDate: '2026-04-01', ToDate: '2026-04-30' },
    { SalesOfficer: officer },
    { FromCustomer: 'ZZZZ' },
    bad,
  ];
  return {
    getSalesSummaryRecords: reports,
    getOrderVDeliverySummaryRecords: [...reports, { SortBy: 'DeliveryPercent', SortDirection: 'DESC' }],
    getOrderVsDeliveryOfficer: [{}, { ManagerId: manager }, { SalesOfficer: 'NOBODY' }, bad],
    getSalesReportStats: [{}, { Username: officer }, { Username: 'nobody' }],
    getCollectionStatements: [
      {},
      { SalesOfficer: officer },
      { FromCustomer: customer.code },
      { PageSize: '3' },
      { FromCustomer: 'ZZZZ' },
      bad,
    ],
    getOpeningBalance: [{}, { CustomerIds: customer.code }, { CustomerIds: 'NONE' }, { Month: '13' }],
    getPCNList: [{}, { SalesOfficer: officer }, { PageSize: '2' }, { Customer: 'NONE' }, { PaymentType: 'X' }],
    getPCNDetails: [{ PDCID: cheque.pdc_id }, { PDCID: 'NONE' }, {}],
    getPCNDebitNotes: [{ PCNNO: withDebitNote.pcn_no }, {}],
    getPCNInvoices: [{ PCNNO: cheque.pcn_no }, {}],
    FillAreaManagers: [{}, { username: manager }, { username: 'nobody' }],
    FillProfitCenterForCustomer: [{}, { CustomerCode: customer.code }],
    ActivityReportAndComplaints: [{}, { SalesOfficer: officer }, { SalesOfficer: officer, PageSize: '2' }, bad],
    SyncWarrantyReqList: [{}, { SalesOfficer: officer, PageSize: '3' }],
    CreateWarrantyRequest: [
      {},
      {
        CustomerCode: customer.code,
        SalesOfficer: customer.sales_officer_id,
        ProductCode: product.code,
        SerialNo: 'SN-TYPED-1',
        Complaint: 'Hums',
        ClientRequestId: 'typed-contract-1',
      },
      { CustomerCode: customer.code },
    ],
    UpdateWarrantyTransportDetails: [
      {},
      {
        RequestNo: submitted.request_no,
        Transporter: 'Blue Dart',
        LRNo: 'LR-1',
        LRDate: '2026-05-01',
        VehicleNo: 'MH12AB1234',
      },
      { RequestNo: 'NONE', Transporter: 'X', LRNo: '1', LRDate: '2026-05-01' },
    ],
    WarrantyRequestFiles: [{}, { RequestNo: withFiles.request_no }],
    ActivityApprovalRejection: [
      {},
      { ActivityNo: pending.activity_no, Action: 'APPROVE', ApprovedBy: 'ADM001' },
      { ActivityNo: pending.activity_no, Action: 'MAYBE' },
    ],
    UpdateActivityNoAndOrderToCustInEnquiryMst: [
      {},
      { EnquiryNo: enquiry.enquiry_no, OrderToCustomer: enquiry.customer_code },
    ],
  };
}
