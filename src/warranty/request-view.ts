/** A warranty request as the app receives it (docs/behaviour.md, field names in PascalCase). */
import { field, nullable, recordType, type FieldType } from '../operations/results';
import type { FileMetaRow, SyncRow, WarrantyRequestRow } from './repository';

export type WarrantyRequestView = ReturnType<typeof requestView>;

const REQUEST_FIELDS = {
  RequestNo: field.string,
  ClientRequestId: nullable(field.string),
  CustomerCode: field.string,
  SalesOfficer: field.string,
  ProductCode: field.string,
  SerialNo: field.string,
  InvoiceNo: nullable(field.string),
  PurchaseDate: nullable(field.date),
  Complaint: field.string,
  Status: field.string,
  Transporter: nullable(field.string),
  LRNo: nullable(field.string),
  LRDate: nullable(field.date),
  VehicleNo: nullable(field.string),
  CreatedAt: field.dateTime,
  UpdatedAt: field.dateTime,
  Version: field.integer,
} satisfies Record<keyof WarrantyRequestView, FieldType>;

/** What the writes answer (docs/results.md). */
export const WARRANTY_REQUEST_TYPE = recordType('WarrantyRequest', REQUEST_FIELDS);
/** A request as the sync lists it: with the number of its files. */
export const SYNCED_WARRANTY_REQUEST_TYPE = recordType('SyncedWarrantyRequest', { ...REQUEST_FIELDS, FileCount: field.integer });

export type WarrantyFileView = ReturnType<typeof fileView>;

export const WARRANTY_FILE_TYPE = recordType('WarrantyFile', {
  FileId: field.string,
  FileName: field.string,
  ContentType: field.string,
  SizeBytes: field.integer,
  Sha256: field.string,
  CreatedAt: field.dateTime,
} satisfies Record<keyof WarrantyFileView, FieldType>);

export function requestView(row: WarrantyRequestRow) {
  return {
    RequestNo: row.request_no,
    ClientRequestId: row.client_request_id,
    CustomerCode: row.customer_code,
    SalesOfficer: row.sales_officer_id,
    ProductCode: row.product_code,
    SerialNo: row.serial_no,
    InvoiceNo: row.invoice_no,
    PurchaseDate: row.purchase_date,
    Complaint: row.complaint,
    Status: row.status,
    Transporter: row.transporter,
    LRNo: row.lr_no,
    LRDate: row.lr_date,
    VehicleNo: row.vehicle_no,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Version: Number(row.version),
  };
}

export function syncView(row: SyncRow) {
  return Object.assign(requestView(row), { FileCount: row.file_count });
}

export function fileView(row: FileMetaRow) {
  return {
    FileId: row.file_id,
    FileName: row.file_name,
    ContentType: row.content_type,
    SizeBytes: Number(row.size_bytes),
    Sha256: row.sha256,
    CreatedAt: row.created_at,
  };
}
