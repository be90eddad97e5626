/** Operations of the warranty area (docs/behaviour.md): they read the fields and call the modules beside them. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { invalid, missing } from '../errors';
import { boundedText, dateOf, optionalDate, positiveInteger, required, text, type Fields } from '../operations/parse';
import {
  readOperation,
  writeOperation,
  type DeclaredRequest,
  type Operation,
  type OperationContext,
} from '../operations/types';
import { createWarrantyRequest as create, listRequestFiles, storeRequestFiles, updateTransportDetails } from './writes';
import { checkFile, decodeBase64, type IncomingFile } from './file-content';
import { findUser } from '../users/hierarchy';
import { allowedOfficers, assertOfficerInScope, type OfficerBound } from '../users/principal-scope';
import { field, record, recordType, rows } from '../operations/results';
import {
  changedSince,
  SYNCED_WARRANTY_REQUEST_TYPE,
  syncView,
  WARRANTY_FILE_TYPE,
  WARRANTY_REQUEST_TYPE,
} from './repository';

const SYNC_PAGE_RESULT = record(
  recordType('WarrantySyncPage', {
    Requests: { list: SYNCED_WARRANTY_REQUEST_TYPE },
    NextSince: field.string,
    HasMore: field.boolean,
  }),
);

/** Length bounds of the free-text and code fields, so nothing unbounded reaches the database. */
const MAX = {
  code: 50,
  serialNo: 100,
  complaint: 2000,
  clientRequestId: 100,
  transporter: 200,
  lrNo: 100,
  vehicleNo: 50,
} as const;

const DEFAULT_SYNC_PAGE_SIZE = 500;
const MAX_SYNC_PAGE_SIZE = 5000;

export const createWarrantyRequest = writeOperation({
  name: 'CreateWarrantyRequest',
  params: [],
  fields: [
    'CustomerCode',
    'SalesOfficer',
    'ProductCode',
    'SerialNo',
    'Complaint',
    'InvoiceNo',
    'PurchaseDate',
    'ClientRequestId',
  ],
  returns: record(WARRANTY_REQUEST_TYPE),
  async run({ fields }, ctx) {
    const input = {
      customerCode: required(fields, 'CustomerCode', MAX.code),
      salesOfficer: required(fields, 'SalesOfficer', MAX.code),
      productCode: required(fields, 'ProductCode', MAX.code),
      serialNo: required(fields, 'SerialNo', MAX.serialNo),
      complaint: required(fields, 'Complaint', MAX.complaint),
      invoiceNo: boundedText(fields, 'InvoiceNo', MAX.code),
      purchaseDate: pastDate(fields, 'PurchaseDate', ctx),
      clientRequestId: boundedText(fields, 'ClientRequestId', MAX.clientRequestId),
    };
    const { request, replayed } = await create(ctx.db, input, ctx.clock.now(), await allowedOfficers(ctx));
    const message = replayed
      ? `ClientRequestId '${input.clientRequestId}' was sent before: the earlier request ${request.RequestNo} is returned unchanged.`
      : `Warranty request ${request.RequestNo} created.`;
    return { data: request, message };
  },
});

export const updateWarrantyTransportDetails = writeOperation({
  name: 'UpdateWarrantyTransportDetails',
  params: [],
  fields: ['RequestNo', 'Transporter', 'LRNo', 'LRDate', 'VehicleNo'],
  returns: record(WARRANTY_REQUEST_TYPE),
  async run({ fields }, ctx) {
    const input = {
      requestNo: required(fields, 'RequestNo', MAX.code).toUpperCase(),
      transporter: required(fields, 'Transporter', MAX.transporter),
      lrNo: required(fields, 'LRNo', MAX.lrNo),
      lrDate: pastDate(fields, 'LRDate', ctx),
      vehicleNo: boundedText(fields, 'VehicleNo', MAX.vehicleNo),
    };
    return updateTransportDetails(ctx.db, input, ctx.clock.now(), await allowedOfficers(ctx));
  },
});

const FILE_FIELDS = ['RequestNo', 'FileName', 'FileContent'] as const;

export const warrantyRequestFiles = writeOperation({
  name: 'WarrantyRequestFiles',
  params: [],
  fields: FILE_FIELDS,
  acceptsFiles: true,
  returns: rows(WARRANTY_FILE_TYPE),
  async run(request, ctx) {
    const requestNo = boundedText(request.fields, 'RequestNo', MAX.code)?.toUpperCase();
    const sendsSomething =
      request.files.length > 0 ||
      text(request.fields, 'FileName') !== undefined ||
      text(request.fields, 'FileContent') !== undefined;
    if (requestNo === undefined) {
      if (sendsSomething) throw missing('RequestNo');
      return { data: [], message: 'No RequestNo was given: no files to list.' };
    }
    const files = incomingFiles(request).map((file) => checkFile(file, ctx.settings.maxFileBytes));
    const allowed = await allowedOfficers(ctx);
    if (files.length === 0) return { data: await listRequestFiles(ctx.db, requestNo, allowed) };
    const { files: stored, added } = await storeRequestFiles(
      ctx.db,
      requestNo,
      files,
      ctx.settings,
      ctx.clock.now(),
      allowed,
    );
    const already = files.length - added;
    return {
      data: stored,
      message:
        `${added} file(s) stored for warranty request ${requestNo}` +
        (already > 0 ? `; ${already} already stored.` : '.'),
    };
  },
});

export const syncWarrantyReqList = readOperation({
  name: 'SyncWarrantyReqList',
  params: [],
  fields: ['SalesOfficer', 'Since', 'PageSize'],
  returns: SYNC_PAGE_RESULT,
  async prepare({ fields }, ctx) {
    const salesOfficer = boundedText(fields, 'SalesOfficer', MAX.code);
    const input = {
      since: sinceToken(fields, 'Since'),
      pageSize: positiveInteger(fields, 'PageSize', DEFAULT_SYNC_PAGE_SIZE, MAX_SYNC_PAGE_SIZE),
    };
    return { input, officers: await syncOfficers(ctx.db, salesOfficer, await allowedOfficers(ctx)) };
  },
  read: async ({ input, officers }, ctx) => ({ data: await syncWarrantyRequests(ctx.db, input, officers) }),
});

export const warrantyOperations: readonly Operation[] = [
  createWarrantyRequest,
  updateWarrantyTransportDetails,
  warrantyRequestFiles,
  syncWarrantyReqList,
];

export type SyncPage = Awaited<ReturnType<typeof syncWarrantyRequests>>;

/**
 * Whose requests SyncWarrantyReqList lists, checked before anything is read: the bound, or the one officer named
 * (FORBIDDEN outside the bound); null for an unknown officer (a read: no requests, not an error).
 */
export async function syncOfficers(
  db: Kysely<Database>,
  salesOfficer: string | undefined,
  allowed?: OfficerBound,
): Promise<OfficerBound | null> {
  if (salesOfficer === undefined) return allowed;
  const officer = await findUser(db, salesOfficer);
  if (!officer) return null;
  assertOfficerInScope(allowed, officer.id, 'SalesOfficer');
  return [officer.id];
}

/**
 * The page of the officers syncOfficers() gave; `since`: change_seq of the last change already seen, 0 = from the beginning.
 * The token is the change_seq of the last request returned; writers commit in change_seq order (counters.ts), so following
 * NextSince sees every change once.
 */
export async function syncWarrantyRequests(
  db: Kysely<Database>,
  input: { since: number; pageSize: number },
  officers: OfficerBound | null,
) {
  if (officers === null) return { Requests: [], NextSince: String(input.since), HasMore: false };
  // One row more than the page tells whether another page follows.
  const rows = await changedSince(db, input.since, officers, input.pageSize + 1);
  const page = rows.slice(0, input.pageSize);
  return {
    Requests: page.map(syncView),
    NextSince: String(page.length > 0 ? Number(page[page.length - 1].change_seq) : input.since),
    HasMore: rows.length > input.pageSize,
  };
}

// ---- field readers of this area ----------------------------------------------------------------

/** The furthest time zone ahead of UTC: a date that is today there is nobody's future yet. */
const LATEST_ZONE_OFFSET_MS = 14 * 60 * 60 * 1000;

/**
 * An optional date that cannot lie in the future (a purchase, a dispatch). The server keeps time in
 * UTC and the app's time zone is unknown, so "today" is the latest calendar date anywhere on Earth:
 * an officer in India (UTC+5:30) entering today's date just after midnight is never refused.
 */
function pastDate<N extends string>(fields: Fields<N>, name: NoInfer<N>, ctx: OperationContext): string | undefined {
  const value = optionalDate(fields, name, ctx.settings.dateOrder);
  const today = dateOf(new Date(ctx.clock.now().getTime() + LATEST_ZONE_OFFSET_MS));
  if (value !== undefined && value > today) throw invalid(name, `'${fields[name]?.trim()}' is after today (${today})`);
  return value;
}

/** Since: empty = from the beginning (0); otherwise a NextSince token, the decimal change_seq. */
function sinceToken<N extends string>(fields: Fields<N>, name: NoInfer<N>): number {
  const value = text(fields, name);
  if (value === undefined) return 0;
  if (!/^\d{1,15}$/.test(value))
    throw invalid(
      name,
      `'${value}' is not a token this service returned as NextSince (leave it empty to start from the beginning)`,
    );
  return Number(value);
}

/**
 * The files of a call: multipart parts, and/or FileContent (base64) named by FileName. FileName
 * without FileContent is an error only when no part carries a file either.
 */
function incomingFiles(request: DeclaredRequest<(typeof FILE_FIELDS)[number]>): IncomingFile[] {
  const files: IncomingFile[] = request.files.map((f) => ({
    field: f.field,
    fileName: f.fileName,
    content: f.content,
  }));
  const content = text(request.fields, 'FileContent');
  if (content !== undefined) {
    files.push({
      field: 'FileContent',
      fileName: text(request.fields, 'FileName') ?? '',
      content: decodeBase64(content, 'FileContent'),
    });
  } else if (text(request.fields, 'FileName') !== undefined && files.length === 0) {
    throw missing('FileContent');
  }
  return files;
}
