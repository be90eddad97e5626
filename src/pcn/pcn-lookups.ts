/**
 * The PCN lookups (docs/behaviour.md) and their queries. PDCID and PCNNO are matched as typed, upper- or lower-cased
 * (documentNumberSpellings), so the lookups keep the indexes and still ignore case like every code.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database, PaymentMethod, PaymentType } from '../db/schema';
import { amount } from '../operations/values';
import {
  documentNumberSpellings,
  preferredSpelling,
  storedCustomerCode,
  storedCustomerCodeOf,
  storedUserId,
  storedUserIdOf,
} from '../operations/master-codes';
import { cutPage, encodePageToken, keyDate, keyText, keyTuple, type PageRequest } from '../operations/paging';
import { rowBatches, StreamedData, streamedResult, type Streams } from '../operations/streamed';
import { field, nullable, recordType, type FieldType } from '../operations/results';
import type { OperationResult } from '../operations/types';
import { assertCustomerInScope, assertOfficerInScope, type OfficerBound } from '../users/principal-scope';
import { SMALL_LIST_ROWS } from '../tunables';

/** A cheque (post-dated or not) of a payment collection note, as the list and the details show it. */
export const CHEQUE = recordType('PCNCheque', {
  PDCID: field.string,
  PCNNO: field.string,
  PCNDate: field.date,
  CustomerCode: field.string,
  CustomerName: field.string,
  PaymentType: field.string,
  PaymentMethod: field.string,
  ChequeNo: nullable(field.string),
  ChequeDate: nullable(field.date),
  BankName: nullable(field.string),
  Amount: field.money,
  Status: field.string,
} satisfies Record<keyof ListedCheque, FieldType>);

/** A cheque as the list and the details show it: the row as the query names it (chequesQuery), Amount from minor units. */
function chequeRow<R extends { Amount: number }>(r: R) {
  return { ...r, Amount: amount(r.Amount) };
}

/**
 * getPCNList, newest first: up to SMALL_LIST_ROWS cheques are answered whole, a longer list streams.
 * The statement finds the filters' stored codes itself (ChequeFilter): one round trip, and on
 * PostgreSQL an officer's id as a literal led the planner to hash the whole customers table.
 */
export async function pcnList(
  db: Kysely<Database>,
  filter: ChequeFilter,
  page: PageRequest<ChequeKey> | undefined,
  streams: Streams | undefined,
): Promise<OperationResult> {
  if (page) return chequePage(db, filter, page);
  const first = await chequesQuery(db, filter)
    .limit(SMALL_LIST_ROWS + 1)
    .execute();
  if (first.length <= SMALL_LIST_ROWS) return { data: first.map(chequeRow) };
  return streamedResult(db, streams, (trx, end) => {
    const rows = () => rowBatches(trx, chequesQuery(trx, filter), chequeRow);
    return new StreamedData({ kind: 'rows', rows }, () => countCheques(trx, filter), undefined, end);
  });
}

/** getPCNList's scope checks, before the list is read; a code that names nothing leaves the list empty. */
export async function checkPcnListScope(db: Kysely<Database>, filter: ChequeFilter): Promise<void> {
  const { officer, customer, customerOfficers: allowed } = filter;
  if (allowed === undefined) return;
  const officerId = officer === undefined ? undefined : await storedUserId(db, officer);
  const customerCode = customer === undefined ? undefined : await storedCustomerCode(db, customer);
  const unknown =
    (officer !== undefined && officerId === undefined) || (customer !== undefined && customerCode === undefined);
  if (unknown) return;
  if (officerId !== undefined) assertOfficerInScope(allowed, officerId, 'SalesOfficer');
  if (customerCode !== undefined) await assertCustomerInScope(db, allowed, customerCode, 'Customer');
}

async function chequePage(
  db: Kysely<Database>,
  filter: ChequeFilter,
  request: PageRequest<ChequeKey>,
): Promise<OperationResult> {
  const records = await chequesQuery(db, filter, request.after)
    .limit(request.size + 1)
    .execute();
  const { rows, next } = cutPage(records, request.size, (r): ChequeKey => [r.PCNDate, r.PDCID]);
  return { data: rows.map(chequeRow), nextPageToken: next === null ? null : encodePageToken(next) };
}

/** Reads a getPCNList token's key back: [pcn_date, pdc_id]; undefined when it is not one. */
export const readChequeKey = keyTuple<ChequeKey>(keyDate, keyText);

/** getPCNDetails: the cheque with its officer and what its PCN settled; null when PDCID is missing or unknown. */
export async function pcnDetails(db: Kysely<Database>, pdcId: string | undefined, allowed?: OfficerBound) {
  if (pdcId === undefined) return null;
  const cheque = await chequeById(db, documentNumberSpellings(pdcId), allowed);
  if (!cheque) return null;
  const [invoices, debitNotes] = await Promise.all([
    lineTotals(db, 'pcn_invoices', cheque.PCNNO),
    lineTotals(db, 'pcn_debit_notes', cheque.PCNNO),
  ]);
  return Object.assign(chequeRow(cheque), {
    InvoiceCount: invoices.count,
    AdjustedAmount: amount(invoices.amount),
    DebitNoteCount: debitNotes.count,
    DebitNoteAmount: amount(debitNotes.amount),
  });
}

/** getPCNInvoices; without a PCNNO an empty list, not the lines of every PCN ever collected. */
export async function pcnInvoiceList(db: Kysely<Database>, pcnNo: string | undefined, allowed?: OfficerBound) {
  if (pcnNo === undefined) return [];
  const spellings = documentNumberSpellings(pcnNo);
  const records = oneSpelling(await pcnInvoices(db, spellings, allowed), spellings);
  return records.map(({ pcn_no: _pcnNo, ...r }) => ({
    ...r,
    InvoiceAmount: amount(r.InvoiceAmount),
    AdjustedAmount: amount(r.AdjustedAmount),
  }));
}

/** getPCNDebitNotes; without a PCNNO an empty list, as pcnInvoiceList. */
export async function pcnDebitNoteList(db: Kysely<Database>, pcnNo: string | undefined, allowed?: OfficerBound) {
  if (pcnNo === undefined) return [];
  const spellings = documentNumberSpellings(pcnNo);
  const records = oneSpelling(await pcnDebitNotes(db, spellings, allowed), spellings);
  return records.map(({ pcn_no: _pcnNo, ...r }) => ({ ...r, Amount: amount(r.Amount) }));
}

/** Should two PCN numbers differ only by case, keeps the lines of the best spelling (exact first). */
function oneSpelling<R extends { pcn_no: string }>(records: R[], spellings: readonly string[]): R[] {
  const chosen = preferredSpelling(records, spellings, (r) => r.pcn_no)?.pcn_no;
  return records.filter((r) => r.pcn_no === chosen);
}

// ---- queries ------------------------------------------------------------------------------------

export interface ChequeFilter {
  /** As typed, any case: the statement finds its stored id (storedUserIdOf); none selects nothing. */
  officer?: string;
  /** The customer as typed, any case, likewise. */
  customer?: string;
  paymentType?: PaymentType;
  paymentMethod?: PaymentMethod;
  /** Only customers owned by these officers (the authenticated user's scope); undefined = all. */
  customerOfficers?: readonly string[];
}

/** A cheque as the list shows it (getPCNList). */
export type ListedCheque = Awaited<ReturnType<ReturnType<typeof chequesQuery>['execute']>>[number];

/** Only what the list shows, since making each value costs the reader, named as the answer names it (CHEQUE). */
const LIST_COLUMNS = [
  'pcn.pdc_id as PDCID',
  'pcn.pcn_no as PCNNO',
  'pcn.pcn_date as PCNDate',
  'pcn.customer_code as CustomerCode',
  'customers.name as CustomerName',
  'pcn.payment_type as PaymentType',
  'pcn.payment_method as PaymentMethod',
  'pcn.cheque_no as ChequeNo',
  'pcn.cheque_date as ChequeDate',
  'pcn.bank_name as BankName',
  'pcn.amount as Amount',
  'pcn.status as Status',
] as const;

const CHEQUE_COLUMNS = [...LIST_COLUMNS, 'pcn.sales_officer_id as SalesOfficer'] as const;

function chequeSource(db: Kysely<Database>) {
  return db.selectFrom('pcn').innerJoin('customers', 'customers.code', 'pcn.customer_code');
}

function filteredCheques(db: Kysely<Database>, filter: ChequeFilter) {
  let query = chequeSource(db);
  if (filter.officer !== undefined) query = query.where('pcn.sales_officer_id', '=', storedUserIdOf(filter.officer));
  if (filter.customer !== undefined)
    query = query.where('pcn.customer_code', '=', storedCustomerCodeOf(filter.customer));
  if (filter.paymentType !== undefined) query = query.where('pcn.payment_type', '=', filter.paymentType);
  if (filter.paymentMethod !== undefined) query = query.where('pcn.payment_method', '=', filter.paymentMethod);
  if (filter.customerOfficers !== undefined)
    query = query.where('customers.sales_officer_id', 'in', filter.customerOfficers);
  return query;
}

/** Where a page of cheques ends: the date and PDCID of its last row. */
export type ChequeKey = [pcnDate: string, pdcId: string];

/** How many cheques the filter selects (the Count before a streamed list). */
export async function countCheques(db: Kysely<Database>, filter: ChequeFilter): Promise<number> {
  const row = await filteredCheques(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Cheques matching the filter, newest first (pcn_date, then pdc_id, both descending); after a key: the next page. */
export function chequesQuery(db: Kysely<Database>, filter: ChequeFilter, after?: ChequeKey) {
  let query = filteredCheques(db, filter).select(LIST_COLUMNS);
  if (after !== undefined) {
    const [pcnDate, pdcId] = after;
    query = query.where((eb) =>
      eb.or([
        eb('pcn.pcn_date', '<', pcnDate),
        eb.and([eb('pcn.pcn_date', '=', pcnDate), eb('pcn.pdc_id', '<', pdcId)]),
      ]),
    );
  }
  return query.orderBy('pcn.pcn_date', 'desc').orderBy('pcn.pdc_id', 'desc');
}

/** One cheque by PDCID, looked up under each of the given spellings (exact match first). */
export async function chequeById(
  db: Kysely<Database>,
  spellings: readonly string[],
  customerOfficers?: readonly string[],
) {
  const rows = await chequeSource(db)
    .select(CHEQUE_COLUMNS)
    .where('pcn.pdc_id', 'in', spellings)
    .$if(customerOfficers !== undefined, (qb) => qb.where('customers.sales_officer_id', 'in', customerOfficers!))
    .execute();
  return preferredSpelling(rows, spellings, (r) => r.PDCID);
}

/** How many invoices or debit notes a PCN (stored number) has, and the sum of their amounts. */
export async function lineTotals(db: Kysely<Database>, table: 'pcn_invoices' | 'pcn_debit_notes', pcnNo: string) {
  const amount = sql.ref(table === 'pcn_invoices' ? 'adjusted_amount' : 'amount');
  const { rows } = await sql<{
    count: number;
    amount: number | null;
  }>`select count(*) as count, sum(${amount}) as amount from ${sql.table(table)} where pcn_no = ${pcnNo}`.execute(db);
  return { count: Number(rows[0].count), amount: Number(rows[0].amount ?? 0) };
}

/** The invoices settled on a PCN (any of the given spellings of its number), by invoice number, named as the answer names them. */
export async function pcnInvoices(
  db: Kysely<Database>,
  pcnNoSpellings: readonly string[],
  customerOfficers?: readonly string[],
) {
  return db
    .selectFrom('pcn_invoices')
    .innerJoin('invoices', 'invoices.invoice_no', 'pcn_invoices.invoice_no')
    .select([
      'pcn_invoices.pcn_no',
      'pcn_invoices.invoice_no as InvoiceNo',
      'invoices.invoice_date as InvoiceDate',
      'invoices.amount as InvoiceAmount',
      'pcn_invoices.adjusted_amount as AdjustedAmount',
    ])
    .where('pcn_invoices.pcn_no', 'in', pcnNoSpellings)
    .$if(customerOfficers !== undefined, (qb) => qb.where(pcnOfOfficers('pcn_invoices.pcn_no', customerOfficers!)))
    .orderBy('pcn_invoices.invoice_no')
    .orderBy('pcn_invoices.pcn_no')
    .execute();
}

/** The debit notes raised on a PCN (any of the given spellings of its number), by date then number, named as the answer names them. */
export async function pcnDebitNotes(
  db: Kysely<Database>,
  pcnNoSpellings: readonly string[],
  customerOfficers?: readonly string[],
) {
  return db
    .selectFrom('pcn_debit_notes')
    .select([
      'pcn_no',
      'debit_note_no as DebitNoteNo',
      'note_date as DebitNoteDate',
      'amount as Amount',
      'reason as Reason',
    ])
    .where('pcn_no', 'in', pcnNoSpellings)
    .$if(customerOfficers !== undefined, (qb) => qb.where(pcnOfOfficers('pcn_debit_notes.pcn_no', customerOfficers!)))
    .orderBy('note_date')
    .orderBy('debit_note_no')
    .execute();
}

/** The PCN numbered by `column` was collected from a customer owned by one of the officers. */
function pcnOfOfficers(column: string, officers: readonly string[]) {
  return sql<SqlBool>`exists (select 1 from pcn p inner join customers c on c.code = p.customer_code where p.pcn_no = ${sql.ref(column)} and c.sales_officer_id in (${sql.join(officers)}))`;
}
