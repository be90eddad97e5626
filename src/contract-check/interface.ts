/**
 * The two services and their operations as interface-spec.md (4.3, 4.4) names them, written down
 * here so the checker knows the contract without asking the server under test (it may be the legacy
 * ASMX server) and without reading this project's own tables.
 */
import type { ServiceTarget } from './types';

export interface ContractOperation {
  name: string;
  /** Contract parameters in WSDL order. */
  params: readonly string[];
  /** HelloWorld returns a string; every main-service operation is void in the WSDL. */
  returnsString: boolean;
}

export interface ContractService {
  name: ServiceTarget['name'];
  operations: readonly ContractOperation[];
}

const SALES_FILTERS = ['SalesOfficer', 'FromCustomer', 'ToCustomer', 'profitCenter', 'FromDate', 'ToDate', 'FromPCat', 'ToPCat', 'SortBy', 'SortDirection', 'Zones', 'States'];

const op = (name: string, params: readonly string[] = []): ContractOperation => ({ name, params, returnsString: false });

export const MAIN_SERVICE: ContractService = {
  name: 'MobileAppWebService',
  operations: [
    op('getSalesSummaryRecords', SALES_FILTERS),
    op('getOrderVDeliverySummaryRecords', SALES_FILTERS),
    op('getCollectionStatements', ['SalesOfficer', 'FromCustomer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection']),
    op('getOrderVsDeliveryOfficer', ['ManagerId', 'SalesOfficer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection', 'Zones', 'States']),
    op('getPCNList', ['SalesOfficer', 'Customer', 'PaymentType', 'PaymentMethod']),
    op('getOpeningBalance', ['CustomerIds', 'Month', 'Year']),
    op('getSalesReportStats', ['Username', 'Role']),
    op('FillAreaManagers', ['username']),
    op('getPCNDebitNotes', ['PCNNO']),
    op('getPCNDetails', ['PDCID']),
    op('getPCNInvoices', ['PCNNO']),
    op('UpdateActivityNoAndOrderToCustInEnquiryMst'),
    op('UpdateWarrantyTransportDetails'),
    op('ActivityApprovalRejection'),
    op('CreateWarrantyRequest'),
    op('FillProfitCenterForCustomer'),
    op('ActivityReportAndComplaints'),
    op('WarrantyRequestFiles'),
    op('SyncWarrantyReqList'),
  ],
};

export const SYNC_SERVICE: ContractService = {
  name: 'SyncCustomers',
  operations: [{ name: 'HelloWorld', params: [], returnsString: true }],
};

export const CONTRACT_SERVICES: readonly ContractService[] = [MAIN_SERVICE, SYNC_SERVICE];

/** The HelloWorld answer of every binding (interface-spec.md 4.4). */
export const HELLO_WORLD = 'Hello World';
