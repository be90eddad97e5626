/**
 * What the warranty tests share: a database with the shared master data (test/support/fixture.ts) plus
 * two invoices, the fields of a valid request, sample file bytes of every accepted type built here byte
 * by byte, and a helper that catches the AppError an operation fails with.
 *
 *   customers: C001, C002 (SO01), C003 (SO02), C004, C005 (SO03);  products P001..P004
 *   invoices:  INV001 (C001), INV002 (C003)
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { AppError } from '../errors';
import { insertMasterData } from '../../test/support/fixture';

export const INVOICES = [
  {
    invoice_no: 'INV001',
    invoice_date: '2026-05-02',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    order_no: null,
    amount: 150000,
  },
  {
    invoice_no: 'INV002',
    invoice_date: '2026-05-03',
    customer_code: 'C003',
    sales_officer_id: 'SO02',
    profit_center_code: 'PC3',
    order_no: null,
    amount: 99900,
  },
];

export async function insertWarrantyFixture(db: Kysely<Database>): Promise<void> {
  await insertMasterData(db);
  await db.insertInto('invoices').values(INVOICES).execute();
}

/** The fields of a valid CreateWarrantyRequest for customer C001 of officer SO01. */
export function validRequest(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    CustomerCode: 'C001',
    SalesOfficer: 'SO01',
    ProductCode: 'P001',
    SerialNo: 'SN-1001',
    Complaint: 'Pump stops after ten minutes',
    ...overrides,
  };
}

/** The AppError a promise rejects with (any other outcome fails the test). */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected the operation to fail, and it succeeded');
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `size` bytes: the type's signature, then a filler that depends on `seed` (so contents differ). */
function withSignature(signature: Buffer, size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(Math.max(size, signature.length));
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  signature.copy(bytes, 0);
  return bytes;
}

export const sample = {
  png: (seed = 1, size = 64) =>
    withSignature(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), size, seed),
  jpeg: (seed = 1, size = 64) => withSignature(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), size, seed),
  webp: (seed = 1, size = 64) => {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(size - 8);
    const header = Buffer.concat([Buffer.from('RIFF'), length, Buffer.from('WEBPVP8 ')]);
    return withSignature(header, size, seed);
  },
  pdf: (seed = 1, size = 64) => withSignature(Buffer.from('%PDF-1.7\n'), size, seed),
  gif: (seed = 1, size = 64) => withSignature(Buffer.from('GIF89a'), size, seed),
};
