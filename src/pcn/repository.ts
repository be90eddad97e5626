/** Queries behind the payment collection note (PCN) lookups. */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database, PaymentMethod, PaymentType } from '../db/schema';
import { preferredSpelling, storedCustomerCodeOf, storedUserIdOf } from '../operations/master-codes';

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
  if (filter.customer !== undefined) query = query.where('pcn.customer_code', '=', storedCustomerCodeOf(filter.customer));
  if (filter.paymentType !== undefined) query = query.where('pcn.payment_type', '=', filter.paymentType);
  if (filter.paymentMethod !== undefined) query = query.where('pcn.payment_method', '=', filter.paymentMethod);
  if (filter.customerOfficers !== undefined) query = query.where('customers.sales_officer_id', 'in', filter.customerOfficers);
  return query;
}

/** Where a page of cheques ends: the date and PDCID of its last row. */
export type ChequeKey = [pcnDate: string, pdcId: string];

/** How many cheques the filter selects (the Count before a streamed list). */
export async function countCheques(db: Kysely<Database>, filter: ChequeFilter): Promise<number> {
  const row = await filteredCheques(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Cheques matching the filter, newest first (pcn_date, then pdc_id, both descending); after a key: the next page. */
export function chequesQuery(db: Kysely<Database>, filter: ChequeFilter, after?: ChequeKey) {
  let query = filteredCheques(db, filter).select(LIST_COLUMNS);
  if (after !== undefined) {
    const [pcnDate, pdcId] = after;
    query = query.where((eb) => eb.or([eb('pcn.pcn_date', '<', pcnDate), eb.and([eb('pcn.pcn_date', '=', pcnDate), eb('pcn.pdc_id', '<', pdcId)])]));
  }
  return query.orderBy('pcn.pcn_date', 'desc').orderBy('pcn.pdc_id', 'desc');
}

/** One cheque by PDCID, looked up under each of the given spellings (exact match first). */
export async function chequeById(db: Kysely<Database>, spellings: readonly string[], customerOfficers?: readonly string[]) {
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
  const { rows } = await sql<{ count: number; amount: number | null }>`select count(*) as count, sum(${amount}) as amount from ${sql.table(table)} where pcn_no = ${pcnNo}`.execute(db);
  return { count: Number(rows[0].count), amount: Number(rows[0].amount ?? 0) };
}

/** The invoices settled on a PCN (any of the given spellings of its number), by invoice number, named as the answer names them. */
export async function pcnInvoices(db: Kysely<Database>, pcnNoSpellings: readonly string[], customerOfficers?: readonly string[]) {
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
export async function pcnDebitNotes(db: Kysely<Database>, pcnNoSpellings: readonly string[], customerOfficers?: readonly string[]) {
  return db
    .selectFrom('pcn_debit_notes')
    .select(['pcn_no', 'debit_note_no as DebitNoteNo', 'note_date as DebitNoteDate', 'amount as Amount', 'reason as Reason'])
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
