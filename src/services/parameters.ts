/** What each named input takes, for the documents (OpenAPI, help pages): a name means the same in every operation. */
import { ACTIONS } from '../activities/operations';
import type { DateOrder } from '../config';
import { MAX_PAGE_SIZE } from '../operations/paging';
import { dateForms, MAX_CODE_LENGTH, type Sorting } from '../operations/parse';
import { PAYMENT_METHODS, PAYMENT_TYPES } from '../pcn/operations';
import { ROLES } from '../sales/operations';

/** What each kind accepts, in words: acceptedValues. */
export interface ParameterDescription {
  kind: 'text' | 'list' | 'date' | 'integer' | 'word' | 'sortField';
  description: string;
  words?: readonly string[];
  minimum?: number;
  maximum?: number;
  /** For a text the operations check (not a code that may name nothing): a value refused, naming the input. */
  refused?: string;
}

const text = (description: string): ParameterDescription => ({ kind: 'text', description });
/** The forms a date takes follow DATE_ORDER: the documents add them (acceptedValues). */
const date = (description: string): ParameterDescription => ({ kind: 'date', description });
const words = (description: string, table: Readonly<Record<string, string>>): ParameterDescription => ({
  kind: 'word',
  description,
  words: Object.keys(table),
});

export const PARAMETERS: Readonly<Record<string, ParameterDescription>> = {
  SalesOfficer: text("A sales officer's employee id (SO0042); the warranty writes also take the username"),
  FromCustomer: text('A customer code: the first of a range, or the one customer when ToCustomer is empty'),
  ToCustomer: text('A customer code: the last of a range'),
  profitCenter: text('A profit center code'),
  FromDate: date('The first day of a range, or the one day when ToDate is empty'),
  ToDate: date('The last day of a range'),
  FromPCat: text('A product category code: the first of a range, or the one category when ToPCat is empty'),
  ToPCat: text('A product category code: the last of a range'),
  SortBy: { kind: 'sortField', description: 'A field of the result rows to sort by (ties by the row key)' },
  SortDirection: words('The sort direction (default ASC; Ascending and Descending are read too)', {
    ASC: 'ASC',
    DESC: 'DESC',
  }),
  Zones: { kind: 'list', description: 'Zone codes, comma-separated' },
  States: { kind: 'list', description: 'State codes, comma-separated' },
  ManagerId: text("A manager's employee id: every sales officer below them"),
  Username: { ...text("A user's id or username: the report covers that user's scope"), refused: 'nobody' },
  Role: words('Narrows the scope to that role (not above the stored one)', ROLES),
  AsOf: date('The day the figures are taken at (default: today)'),
  PageSize: {
    kind: 'integer',
    description: 'Rows per page (docs/behaviour.md, "Paging")',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
  },
  PageToken: text('The NextPageToken of the previous page, unchanged'),
  CustomerIds: { kind: 'list', description: 'Customer codes, comma-separated; empty or ALL: every customer' },
  Month: { ...text('A month: 1-12, Jan-Dec or January-December (default: the current month)'), refused: '13' },
  Year: {
    kind: 'integer',
    description: 'A year, four digits (default: the current year)',
    minimum: 1900,
    maximum: 9999,
  },
  Customer: text('A customer code'),
  PaymentType: words('The payment type', PAYMENT_TYPES),
  PaymentMethod: words('The payment method', PAYMENT_METHODS),
  PDCID: text('A cheque number (PDC...)'),
  PCNNO: text('A payment collection note number (PCN...)'),
  username: { ...text("A user's id or username: the area managers that user may pick"), refused: 'nobody' },
  CustomerCode: text('A customer code'),
  ProductCode: text('A product code'),
  SerialNo: text("The product's serial number"),
  Complaint: text('What is wrong with the product'),
  InvoiceNo: text('The invoice the product was bought on'),
  PurchaseDate: date('The day the product was bought (not in the future)'),
  ClientRequestId: text(
    "The app's own id of the request, per sales officer: the same request again returns the first one unchanged; another request with the key is CONFLICT",
  ),
  RequestNo: text('A warranty request number (WR...)'),
  Transporter: text('Who carries the product'),
  LRNo: text('The lorry receipt number'),
  LRDate: date('The lorry receipt date (not in the future)'),
  VehicleNo: text('The vehicle number'),
  FileName: text('The name of the file sent in FileContent'),
  FileContent: text('A file, base64 (a data: prefix, URL-safe alphabet and missing padding are accepted)'),
  Since: text('The NextSince of the previous call (digits; empty: from the beginning)'),
  ActivityNo: text('An activity number (ACT...)'),
  Action: words('The decision', ACTIONS),
  ApprovedBy: text("The deciding user's id or username"),
  Remarks: text('Remarks; required to reject'),
  EnquiryNo: text('An enquiry number (ENQ...)'),
  OrderToCustomer: text('The customer code the order went to'),
};

/** What a named input accepts, in words; `sorting` is the operation's, which SortBy follows. */
export function acceptedValues(
  parameter: ParameterDescription,
  sorting: Sorting | undefined,
  dateOrder: DateOrder,
): string {
  switch (parameter.kind) {
    case 'date':
      return `A date: ${dateForms(dateOrder)}; a time after yyyy-MM-dd is ignored`;
    case 'list':
      return `Codes separated by commas, in any case, each at most ${MAX_CODE_LENGTH} characters; spaces around them are ignored; empty or ALL: no filter`;
    case 'integer':
      return `A whole number from ${parameter.minimum ?? 1} to ${parameter.maximum ?? ''}`;
    case 'word':
      return `One of ${(parameter.words ?? []).join(', ')}, in any case`;
    case 'sortField':
      return sorting === undefined
        ? 'A field of the result rows, in any case'
        : `One of ${sorting.fields.join(', ')}, in any case; default ${sorting.fallback}`;
    case 'text':
      return 'Text';
  }
}
