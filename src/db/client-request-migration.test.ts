/**
 * Migration 0007 on a database that holds warranty requests and files (every other suite migrates an
 * empty one): the rows are kept as they were, the files still refer to their requests (SQLite rebuilds
 * the table with foreign keys off meanwhile), and a key becomes unique per officer.
 */
import { ENGINES, emptyEngine } from '../../test/support/engines';
import { insertWarrantyFixture } from '../warranty/test-fixture';
import type { Engine } from './engine';
import { migrate } from './migrate';
import type { Database } from './schema';

const STAMP = '2026-06-10T08:00:00.000Z';

function request(
  no: string,
  key: string | null,
  officer: string,
  customer: string,
  changeSeq: number,
): Database['warranty_requests'] {
  return {
    request_no: no,
    client_request_id: key,
    customer_code: customer,
    sales_officer_id: officer,
    product_code: 'P001',
    serial_no: `SN-${no}`,
    invoice_no: customer === 'C001' ? 'INV001' : null,
    purchase_date: '2026-05-05',
    complaint: 'Noise',
    status: 'DISPATCHED',
    transporter: 'VRL',
    lr_no: 'LR-1',
    lr_date: '2026-06-11',
    vehicle_no: null,
    created_at: STAMP,
    updated_at: STAMP,
    version: 2,
    change_seq: changeSeq,
  };
}

describe.each(ENGINES)('migration 0007 on stored warranty requests: %s', (kind) => {
  let engine: Engine;
  afterEach(() => engine.close());

  it('keeps every request and file, keeps the files referring to them, and makes the key unique per officer', async () => {
    engine = emptyEngine(kind);
    await migrate(engine, '0006_warranty_customer_index');
    const db = engine.db;
    await insertWarrantyFixture(db);
    const rows = [request('WR0000001', 'app-1', 'SO01', 'C001', 1), request('WR0000002', null, 'SO02', 'C003', 2)];
    await db.insertInto('warranty_requests').values(rows).execute();
    const file = {
      file_id: 'F0000001',
      request_no: 'WR0000001',
      file_name: 'p.png',
      content_type: 'image/png',
      size_bytes: 3,
      sha256: 'ab',
      content: Buffer.from([1, 2, 3]),
      created_at: STAMP,
    };
    await db.insertInto('warranty_files').values(file).execute();

    await migrate(engine);

    expect(await db.selectFrom('warranty_requests').selectAll().orderBy('request_no').execute()).toEqual(rows);
    expect(await db.selectFrom('warranty_files').selectAll().execute()).toEqual([file]);
    await expect(
      db
        .insertInto('warranty_files')
        .values({ ...file, file_id: 'F0000002', request_no: 'WR0000404' })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('warranty_requests')
      .values(request('WR0000003', 'app-1', 'SO02', 'C003', 3))
      .execute();
    await expect(
      db
        .insertInto('warranty_requests')
        .values(request('WR0000004', 'app-1', 'SO01', 'C001', 4))
        .execute(),
    ).rejects.toThrow();
    expect(await db.selectFrom('warranty_requests').select('request_no').orderBy('request_no').execute()).toEqual([
      { request_no: 'WR0000001' },
      { request_no: 'WR0000002' },
      { request_no: 'WR0000003' },
    ]);
  });
});
