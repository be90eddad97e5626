/**
 * The operations and parameter lists of interface-spec.md 4.3 and 4.4, written down by hand so that
 * the tests compare the server against the spec, never against the code's own tables.
 */
export const MAIN_OPERATIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['getSalesSummaryRecords', ['SalesOfficer', 'FromCustomer', 'ToCustomer', 'profitCenter', 'FromDate', 'ToDate', 'FromPCat', 'ToPCat', 'SortBy', 'SortDirection', 'Zones', 'States']],
  ['getOrderVDeliverySummaryRecords', ['SalesOfficer', 'FromCustomer', 'ToCustomer', 'profitCenter', 'FromDate', 'ToDate', 'FromPCat', 'ToPCat', 'SortBy', 'SortDirection', 'Zones', 'States']],
  ['getCollectionStatements', ['SalesOfficer', 'FromCustomer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection']],
  ['getOrderVsDeliveryOfficer', ['ManagerId', 'SalesOfficer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection', 'Zones', 'States']],
  ['getPCNList', ['SalesOfficer', 'Customer', 'PaymentType', 'PaymentMethod']],
  ['getOpeningBalance', ['CustomerIds', 'Month', 'Year']],
  ['getSalesReportStats', ['Username', 'Role']],
  ['FillAreaManagers', ['username']],
  ['getPCNDebitNotes', ['PCNNO']],
  ['getPCNDetails', ['PDCID']],
  ['getPCNInvoices', ['PCNNO']],
  ['UpdateActivityNoAndOrderToCustInEnquiryMst', []],
  ['UpdateWarrantyTransportDetails', []],
  ['ActivityApprovalRejection', []],
  ['CreateWarrantyRequest', []],
  ['FillProfitCenterForCustomer', []],
  ['ActivityReportAndComplaints', []],
  ['WarrantyRequestFiles', []],
  ['SyncWarrantyReqList', []],
];

export const MAIN_OPERATION_NAMES = MAIN_OPERATIONS.map(([name]) => name);

/** domain.md, "Writes": with no input at all they do nothing and succeed. */
export const WRITE_OPERATIONS = [
  'CreateWarrantyRequest',
  'WarrantyRequestFiles',
  'UpdateWarrantyTransportDetails',
  'ActivityApprovalRejection',
  'UpdateActivityNoAndOrderToCustInEnquiryMst',
];

export const SYNC_OPERATIONS: ReadonlyArray<readonly [string, readonly string[]]> = [['HelloWorld', []]];

export const MAIN_PATH = '/API/MobileAppWebService.asmx';
export const SYNC_PATH = '/API/SyncCustomers.asmx';
