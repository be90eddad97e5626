/**
 * The PCN lookups (docs/behaviour.md). PDCID and PCNNO are matched as typed, upper- or lower-cased
 * (documentNumberSpellings), so the lookups keep the indexes and still ignore case like every code.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { amount } from '../operations/values';
import { documentNumberSpellings, preferredSpelling, storedCustomerCode, storedUserId } from '../operations/master-codes';
import { cutPage, encodePageToken, keyDate, keyText, keyTuple, type PageRequest } from '../operations/paging';
import { rowBatches, StreamedData, streamedResult } from '../operations/streamed';
import { field, nullable, recordType, type FieldType } from '../operations/results';
import type { OperationResult } from '../operations/types';
import * as repo from './repository';
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
} satisfies Record<keyof repo.ListedCheque, FieldType>);

/** A cheque as the list and the details show it: the row as the query names it (repo.chequesQuery), Amount from minor units. */
function chequeRow<R extends { Amount: number }>(r: R) {
  return { ...r, Amount: amount(r.Amount) };
}

/**
 * getPCNList, newest first: up to SMALL_LIST_ROWS cheques are answered whole, a longer list streams.
 * The statement finds the filters' stored codes itself (repo.ChequeFilter): one round trip, and on
 * PostgreSQL an officer's id as a literal led the planner to hash the whole customers table.
 */
export async function pcnList(db: Kysely<Database>, filter: repo.ChequeFilter, page: PageRequest<repo.ChequeKey> | undefined, streams: boolean | undefined): Promise<OperationResult> {
  if (page) return chequePage(db, filter, page);
  const first = await repo.chequesQuery(db, filter).limit(SMALL_LIST_ROWS + 1).execute();
  if (first.length <= SMALL_LIST_ROWS) return { data: first.map(chequeRow) };
  return streamedResult(db, streams, (trx, end) => {
    const rows = () => rowBatches(trx, repo.chequesQuery(trx, filter), chequeRow);
    return new StreamedData({ kind: 'rows', rows }, () => repo.countCheques(trx, filter), undefined, end);
  });
}

/** getPCNList's scope checks, before the list is read; a code that names nothing leaves the list empty. */
export async function checkPcnListScope(db: Kysely<Database>, filter: repo.ChequeFilter): Promise<void> {
  const { officer, customer, customerOfficers: allowed } = filter;
  if (allowed === undefined) return;
  const officerId = officer === undefined ? undefined : await storedUserId(db, officer);
  const customerCode = customer === undefined ? undefined : await storedCustomerCode(db, customer);
  const unknown = (officer !== undefined && officerId === undefined) || (customer !== undefined && customerCode === undefined);
  if (unknown) return;
  if (officerId !== undefined) assertOfficerInScope(allowed, officerId, 'SalesOfficer');
  if (customerCode !== undefined) await assertCustomerInScope(db, allowed, customerCode, 'Customer');
}

async function chequePage(db: Kysely<Database>, filter: repo.ChequeFilter, request: PageRequest<repo.ChequeKey>): Promise<OperationResult> {
  const records = await repo.chequesQuery(db, filter, request.after).limit(request.size + 1).execute();
  const { rows, next } = cutPage(records, request.size, (r): repo.ChequeKey => [r.PCNDate, r.PDCID]);
  return { data: rows.map(chequeRow), nextPageToken: next === null ? null : encodePageToken(next) };
}

/** Reads a getPCNList token's key back: [pcn_date, pdc_id]; undefined when it is not one. */
export const readChequeKey = keyTuple<repo.ChequeKey>(keyDate, keyText);

/** getPCNDetails: the cheque with its officer and what its PCN settled; null when PDCID is missing or unknown. */
export async function pcnDetails(db: Kysely<Database>, pdcId: string | undefined, allowed?: OfficerBound) {
  if (pdcId === undefined) return null;
  const cheque = await repo.chequeById(db, documentNumberSpellings(pdcId), allowed);
  if (!cheque) return null;
  const [invoices, debitNotes] = await Promise.all([repo.lineTotals(db, 'pcn_invoices', cheque.PCNNO), repo.lineTotals(db, 'pcn_debit_notes', cheque.PCNNO)]);
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
  const records = oneSpelling(await repo.pcnInvoices(db, spellings, allowed), spellings);
  return records.map(({ pcn_no: _pcnNo, ...r }) => ({ ...r, InvoiceAmount: amount(r.InvoiceAmount), AdjustedAmount: amount(r.AdjustedAmount) }));
}

/** getPCNDebitNotes; without a PCNNO an empty list, as pcnInvoiceList. */
export async function pcnDebitNoteList(db: Kysely<Database>, pcnNo: string | undefined, allowed?: OfficerBound) {
  if (pcnNo === undefined) return [];
  const spellings = documentNumberSpellings(pcnNo);
  const records = oneSpelling(await repo.pcnDebitNotes(db, spellings, allowed), spellings);
  return records.map(({ pcn_no: _pcnNo, ...r }) => ({ ...r, Amount: amount(r.Amount) }));
}

/** Should two PCN numbers differ only by case, keeps the lines of the best spelling (exact first). */
function oneSpelling<R extends { pcn_no: string }>(records: R[], spellings: readonly string[]): R[] {
  const chosen = preferredSpelling(records, spellings, (r) => r.pcn_no)?.pcn_no;
  return records.filter((r) => r.pcn_no === chosen);
}

