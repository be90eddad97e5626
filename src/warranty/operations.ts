/** Operations of this business area (domain.md). */
import type { Operation } from '../operations/types';

export const createWarrantyRequest: Operation = {
  name: 'CreateWarrantyRequest',
  params: [],
  fields: ['CustomerCode', 'SalesOfficer', 'ProductCode', 'SerialNo', 'Complaint', 'InvoiceNo', 'PurchaseDate', 'ClientRequestId'],
  acceptsFiles: false,
  kind: 'write',
  async run() {
    throw new Error('CreateWarrantyRequest is being built');
  },
};

export const updateWarrantyTransportDetails: Operation = {
  name: 'UpdateWarrantyTransportDetails',
  params: [],
  fields: ['RequestNo', 'Transporter', 'LRNo', 'LRDate', 'VehicleNo'],
  acceptsFiles: false,
  kind: 'write',
  async run() {
    throw new Error('UpdateWarrantyTransportDetails is being built');
  },
};

export const warrantyRequestFiles: Operation = {
  name: 'WarrantyRequestFiles',
  params: [],
  fields: ['RequestNo', 'FileName', 'FileContent'],
  acceptsFiles: true,
  kind: 'write',
  async run() {
    throw new Error('WarrantyRequestFiles is being built');
  },
};

export const syncWarrantyReqList: Operation = {
  name: 'SyncWarrantyReqList',
  params: [],
  fields: ['SalesOfficer', 'Since', 'PageSize'],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('SyncWarrantyReqList is being built');
  },
};

export const warrantyOperations: readonly Operation[] = [createWarrantyRequest, updateWarrantyTransportDetails, warrantyRequestFiles, syncWarrantyReqList];
