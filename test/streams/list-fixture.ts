/**
 * Rows for the streamed-list and paging suites: receipts, PCN cheques, activities and complaints
 * spread over the fixture's officers and customers (test/support/fixture.ts), generated
 * deterministically, with many rows sharing a date (and receipts sharing an amount) so that the
 * tie-breaks of every order and of every page key are exercised.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';
import { insertMasterData } from '../support/fixture';

const CUSTOMER_OFFICERS = [
  ['C001', 'SO01'],
  ['C002', 'SO01'],
  ['C003', 'SO02'],
  ['C004', 'SO03'],
] as const;
const METHODS = ['CHEQUE', 'DD', 'NEFT', 'RTGS', 'UPI', 'CASH'] as const;

function day(i: number): string {
  const d = new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 4) * 86_400_000);
  return d.toISOString().slice(0, 10);
}

const numbered = (prefix: string, i: number) => `${prefix}${String(i).padStart(6, '0')}`;

/** `count` rows made by `row`; row i belongs to the i-th customer and officer of CUSTOMER_OFFICERS in turn. */
function documentRows<T>(
  count: number,
  row: (i: number, party: { customer_code: string; sales_officer_id: string }) => T,
): T[] {
  return Array.from({ length: count }, (_, i) => {
    const [customer_code, sales_officer_id] = CUSTOMER_OFFICERS[i % CUSTOMER_OFFICERS.length];
    return row(i, { customer_code, sales_officer_id });
  });
}

export function receiptRows(count: number, prefix = 'RC'): Database['receipts'][] {
  return documentRows(count, (i, party) => ({
    receipt_no: numbered(prefix, i),
    receipt_date: day((i * 7) % count),
    ...party,
    payment_method: METHODS[i % METHODS.length],
    reference: `REF-${(i * 13) % 97} "quoted" \\ ü`,
    amount: 1000 + ((i * 37) % 50) * 100 + (i % 3),
  }));
}

export function chequeRows(count: number, prefix = 'PDC'): Database['pcn'][] {
  return documentRows(count, (i, party) => ({
    pdc_id: numbered(prefix, i),
    pcn_no: numbered('PCN', Math.floor(i / 2)),
    pcn_date: day((i * 5) % count),
    ...party,
    payment_type: (['PDC', 'CURRENT', 'ADVANCE'] as const)[i % 3],
    payment_method: METHODS[i % METHODS.length],
    cheque_no: i % 2 === 0 ? `CHQ${i}` : null,
    cheque_date: i % 2 === 0 ? day(i + 8) : null,
    bank_name: i % 2 === 0 ? 'HDFC Bank' : null,
    amount: 50_000 + i * 101,
    status: (['RECEIVED', 'DEPOSITED', 'CLEARED', 'BOUNCED', 'CANCELLED'] as const)[i % 5],
  }));
}

export function activityRows(count: number, prefix = 'ACT'): Database['activities'][] {
  return documentRows(count, (i, party) => {
    const status = (['PENDING', 'APPROVED', 'REJECTED'] as const)[i % 3];
    return {
      activity_no: numbered(prefix, i),
      activity_date: day((i * 3) % count),
      activity_type: 'VISIT',
      ...party,
      description: `Visit ${i}`,
      status,
      decided_by: status === 'PENDING' ? null : 'AM01',
      decided_at: status === 'PENDING' ? null : '2026-03-01T10:00:00.000Z',
      remarks: null,
    };
  });
}

export function complaintRows(count: number, prefix = 'CMP'): Database['complaints'][] {
  return documentRows(count, (i, party) => ({
    complaint_no: numbered(prefix, i),
    complaint_date: day((i * 11) % count),
    ...party,
    product_code: ['P001', 'P002', 'P003', 'P004'][i % 4],
    description: `Complaint ${i}`,
    status: i % 4 === 0 ? 'RESOLVED' : 'OPEN',
  }));
}

export interface ListSizes {
  receipts: number;
  cheques: number;
  activities: number;
  complaints: number;
}

async function insertChunked<T extends object>(
  db: Kysely<Database>,
  table: 'receipts' | 'pcn' | 'activities' | 'complaints',
  rows: T[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 500) as never)
      .execute();
}

export async function insertListFixture(db: Kysely<Database>, sizes: ListSizes): Promise<void> {
  await insertMasterData(db);
  await insertChunked(db, 'receipts', receiptRows(sizes.receipts));
  await insertChunked(db, 'pcn', chequeRows(sizes.cheques));
  await insertChunked(db, 'activities', activityRows(sizes.activities));
  await insertChunked(db, 'complaints', complaintRows(sizes.complaints));
}
