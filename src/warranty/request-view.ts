/** A warranty request as the app receives it (docs/behaviour.md, field names in PascalCase). */
import type { FileMetaRow, SyncRow, WarrantyRequestRow } from './repository';

export interface WarrantyRequestView {
  RequestNo: string;
  ClientRequestId: string | null;
  CustomerCode: string;
  SalesOfficer: string;
  ProductCode: string;
  SerialNo: string;
  InvoiceNo: string | null;
  PurchaseDate: string | null;
  Complaint: string;
  Status: string;
  Transporter: string | null;
  LRNo: string | null;
  LRDate: string | null;
  VehicleNo: string | null;
  CreatedAt: string;
  UpdatedAt: string;
  Version: number;
}

export interface WarrantyFileView {
  FileId: string;
  FileName: string;
  ContentType: string;
  SizeBytes: number;
  Sha256: string;
  CreatedAt: string;
}

export function requestView(row: WarrantyRequestRow): WarrantyRequestView {
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

export function syncView(row: SyncRow): WarrantyRequestView & { FileCount: number } {
  return { ...requestView(row), FileCount: row.file_count };
}

export function fileView(row: FileMetaRow): WarrantyFileView {
  return {
    FileId: row.file_id,
    FileName: row.file_name,
    ContentType: row.content_type,
    SizeBytes: Number(row.size_bytes),
    Sha256: row.sha256,
    CreatedAt: row.created_at,
  };
}
