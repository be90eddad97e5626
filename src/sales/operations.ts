/** Operations of this business area (domain.md). */
import type { Operation } from '../operations/types';

export const getSalesSummaryRecords: Operation = {
  name: 'getSalesSummaryRecords',
  params: ['SalesOfficer', 'FromCustomer', 'ToCustomer', 'profitCenter', 'FromDate', 'ToDate', 'FromPCat', 'ToPCat', 'SortBy', 'SortDirection', 'Zones', 'States'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getSalesSummaryRecords is being built');
  },
};

export const getOrderVDeliverySummaryRecords: Operation = {
  name: 'getOrderVDeliverySummaryRecords',
  params: ['SalesOfficer', 'FromCustomer', 'ToCustomer', 'profitCenter', 'FromDate', 'ToDate', 'FromPCat', 'ToPCat', 'SortBy', 'SortDirection', 'Zones', 'States'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getOrderVDeliverySummaryRecords is being built');
  },
};

export const getOrderVsDeliveryOfficer: Operation = {
  name: 'getOrderVsDeliveryOfficer',
  params: ['ManagerId', 'SalesOfficer', 'FromDate', 'ToDate', 'SortBy', 'SortDirection', 'Zones', 'States'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getOrderVsDeliveryOfficer is being built');
  },
};

export const getSalesReportStats: Operation = {
  name: 'getSalesReportStats',
  params: ['Username', 'Role'],
  fields: ['AsOf'],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('getSalesReportStats is being built');
  },
};

export const salesOperations: readonly Operation[] = [getSalesSummaryRecords, getOrderVDeliverySummaryRecords, getOrderVsDeliveryOfficer, getSalesReportStats];
