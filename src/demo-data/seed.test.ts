import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { ENGINES, freshEngine } from '../../test/support/engines';
import type { Engine } from '../db/engine';
import { DatabaseNotEmptyError, SEEDED_TABLES, isEmpty, seed, seedIfEmpty, type SeedSummary } from './index';

const OPTIONS = { scale: 0.03, asOf: '2026-05-15' };

/** Primary key of every table, so a table's content can be read in one order on both engines. */
const KEYS: Record<string, string[]> = {
  zones: ['code'],
  states: ['code'],
  profit_centers: ['code'],
  product_categories: ['code'],
  products: ['code'],
  users: ['id'],
  customers: ['code'],
  customer_profit_centers: ['customer_code', 'profit_center_code'],
  orders: ['order_no'],
  order_lines: ['order_no', 'line_no'],
  invoices: ['invoice_no'],
  invoice_lines: ['invoice_no', 'line_no'],
  receipts: ['receipt_no'],
  pcn: ['pdc_id'],
  pcn_invoices: ['pcn_no', 'invoice_no'],
  pcn_debit_notes: ['debit_note_no'],
  ledger_entries: ['doc_type', 'doc_no', 'customer_code'],
  activities: ['activity_no'],
  enquiries: ['enquiry_no'],
  complaints: ['complaint_no'],
  warranty_requests: ['request_no'],
  warranty_files: ['file_id'],
  counters: ['name'],
};

async function contentHash(engine: Engine): Promise<string> {
  const hash = createHash('sha256');
  for (const table of [...SEEDED_TABLES, 'counters'] as const) {
    let query = engine.db.selectFrom(table).selectAll();
    for (const key of KEYS[table]) query = query.orderBy(key as never);
    const rows = await query.execute();
    hash.update(`${table}:${rows.length}\n`);
    for (const row of rows) {
      const values = Object.keys(row)
        .sort()
        .map((k) => {
          const v = (row as Record<string, unknown>)[k];
          return Buffer.isBuffer(v) ? v.toString('hex') : v;
        });
      hash.update(`${JSON.stringify(values)}\n`);
    }
  }
  return hash.digest('hex');
}

async function count(engine: Engine, query: string): Promise<number> {
  const { rows } = await sql.raw<{ n: number | string }>(query).execute(engine.db);
  return Number(rows[0].n);
}

describe.each(ENGINES)('demo data: %s', (kind) => {
  let engine: Engine;
  let summary: SeedSummary;

  beforeAll(async () => {
    engine = await freshEngine(kind);
    summary = await seed(engine, OPTIONS);
  });
  afterAll(async () => {
    await engine.close();
  });

  it('covers the previous fiscal year and the current one up to the as-of date', async () => {
    expect(summary.from).toBe('2025-04-01');
    expect(summary.asOf).toBe('2026-05-15');
    for (const [table, column] of [
      ['orders', 'order_date'],
      ['invoices', 'invoice_date'],
      ['receipts', 'receipt_date'],
      ['activities', 'activity_date'],
    ]) {
      const range = await sql
        .raw<{ lo: string; hi: string }>(`select min(${column}) as lo, max(${column}) as hi from ${table}`)
        .execute(engine.db);
      expect(String(range.rows[0].lo) >= '2025-04-01').toBe(true);
      expect(String(range.rows[0].hi) <= '2026-05-15').toBe(true);
      expect(String(range.rows[0].hi) >= '2026-05-01').toBe(true);
    }
  });

  it('reports the rows it wrote, and they are in the tables', async () => {
    for (const table of SEEDED_TABLES) {
      expect(await count(engine, `select count(*) as n from ${table}`)).toBe(summary.rows[table]);
      expect(summary.rows[table]).toBeGreaterThan(0);
    }
    expect(summary.totalRows).toBe(SEEDED_TABLES.reduce((sum, t) => sum + summary.rows[t], 0));
  });

  it('builds a reporting tree with one ADMIN and every officer under the next role up', async () => {
    const users = await engine.db.selectFrom('users').selectAll().execute();
    const byId = new Map(users.map((u) => [u.id, u]));
    const above = { ZM: 'ADMIN', AM: 'ZM', SO: 'AM' } as const;
    expect(users.filter((u) => u.role === 'ADMIN')).toEqual([
      expect.objectContaining({ id: 'ADM001', manager_id: null }),
    ]);
    expect(users.filter((u) => u.role === 'ZM')).toHaveLength(4);
    for (const u of users.filter((x) => x.role !== 'ADMIN')) {
      expect(byId.get(u.manager_id!)?.role).toBe(above[u.role as keyof typeof above]);
      expect(u.id).toMatch(/^(ZM|AM|SO)\d{4}$/);
      expect(u.username).toBe(u.username.toLowerCase());
    }
    expect(
      await count(
        engine,
        `select count(*) as n from customers c join users u on u.id = c.sales_officer_id where u.role <> 'SO'`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from users u where u.role = 'SO' and not exists (select 1 from customers c where c.sales_officer_id = u.id)`,
      ),
    ).toBe(0);
  });

  it('gives every customer one to three profit centers and its documents to its own officer', async () => {
    expect(
      await count(
        engine,
        `select count(*) as n from customers c where (select count(*) from customer_profit_centers p where p.customer_code = c.code) not between 1 and 3`,
      ),
    ).toBe(0);
    for (const table of [
      'orders',
      'invoices',
      'receipts',
      'pcn',
      'activities',
      'enquiries',
      'complaints',
      'warranty_requests',
    ]) {
      expect(
        await count(
          engine,
          `select count(*) as n from ${table} d join customers c on c.code = d.customer_code where d.sales_officer_id <> c.sales_officer_id`,
        ),
      ).toBe(0);
    }
    // Orders come from the customer's own profit centers.
    expect(
      await count(
        engine,
        `select count(*) as n from orders o where not exists (select 1 from customer_profit_centers p where p.customer_code = o.customer_code and p.profit_center_code = o.profit_center_code)`,
      ),
    ).toBe(0);
  });

  it('posts exactly one ledger entry per invoice, receipt and debit note, and one opening per customer', async () => {
    const posted = (docs: string, docType: string, join: string, amount: string) =>
      count(
        engine,
        `select count(*) as n from ${docs} d ${join} join ledger_entries l on l.doc_type = '${docType}' and l.doc_no = d.${amount}`,
      );
    expect(
      await posted(
        'invoices',
        'INVOICE',
        '',
        `invoice_no and l.customer_code = d.customer_code and l.debit = d.amount and l.credit = 0 and l.entry_date = d.invoice_date`,
      ),
    ).toBe(summary.rows.invoices);
    expect(
      await posted(
        'receipts',
        'RECEIPT',
        '',
        `receipt_no and l.customer_code = d.customer_code and l.credit = d.amount and l.debit = 0 and l.entry_date = d.receipt_date`,
      ),
    ).toBe(summary.rows.receipts);
    expect(
      await count(
        engine,
        `select count(*) as n from pcn_debit_notes d join ledger_entries l on l.doc_type = 'DEBIT_NOTE' and l.doc_no = d.debit_note_no and l.debit = d.amount and l.entry_date = d.note_date
      where l.customer_code = (select min(p.customer_code) from pcn p where p.pcn_no = d.pcn_no)`,
      ),
    ).toBe(summary.rows.pcn_debit_notes);
    const byType = await sql<{
      doc_type: string;
      n: number | string;
    }>`select doc_type, count(*) as n from ledger_entries group by doc_type`.execute(engine.db);
    const n = Object.fromEntries(byType.rows.map((r) => [r.doc_type, Number(r.n)]));
    expect(n).toEqual({
      OPENING: summary.rows.customers,
      INVOICE: summary.rows.invoices,
      RECEIPT: summary.rows.receipts,
      DEBIT_NOTE: summary.rows.pcn_debit_notes,
      CREDIT_NOTE: expect.any(Number),
    });
    expect(
      await count(
        engine,
        `select count(*) as n from ledger_entries where doc_type = 'OPENING' and entry_date <> '2025-04-01'`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from ledger_entries where doc_type = 'CREDIT_NOTE' and (credit <= 0 or debit <> 0)`,
      ),
    ).toBe(0);
  });

  it('makes every invoice the sum of its lines, and delivers no order line beyond what was ordered', async () => {
    expect(
      await count(
        engine,
        `select count(*) as n from invoices i where i.amount <> (select coalesce(sum(l.value), -1) from invoice_lines l where l.invoice_no = i.invoice_no)`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from order_lines ol where ol.quantity < (select coalesce(sum(il.quantity), 0) from invoice_lines il where il.order_no = ol.order_no and il.order_line_no = ol.line_no)`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from invoice_lines il join invoices i on i.invoice_no = il.invoice_no where il.order_no is not null and il.order_no <> i.order_no`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from orders o where (select count(*) from order_lines l where l.order_no = o.order_no) not between 1 and 5`,
      ),
    ).toBe(0);
    expect(await count(engine, `select count(*) as n from invoices where order_no is null`)).toBeGreaterThan(0);
  });

  it('sets order statuses from what was delivered by the as-of date', async () => {
    const { rows } = await sql<{ status: string; ordered: number | string; delivered: number | string }>`
      select o.status,
             (select sum(l.quantity) from order_lines l where l.order_no = o.order_no) as ordered,
             (select coalesce(sum(il.quantity), 0) from invoice_lines il where il.order_no = o.order_no) as delivered
      from orders o`.execute(engine.db);
    const kinds = new Set<string>();
    for (const r of rows) {
      const [ordered, delivered] = [Number(r.ordered), Number(r.delivered)];
      if (r.status === 'CLOSED') expect(delivered).toBe(ordered);
      if (r.status === 'CANCELLED') expect(delivered).toBe(0);
      if (r.status === 'OPEN') expect(delivered).toBeLessThan(ordered);
      kinds.add(r.status === 'OPEN' ? (delivered > 0 ? 'partial' : 'pending') : r.status);
    }
    expect([...kinds].sort()).toEqual(['CANCELLED', 'CLOSED', 'partial', 'pending']);
  });

  it('builds collection notes of one to three cheques adjusting real invoices of the same customer', async () => {
    expect(
      await count(
        engine,
        `select count(*) as n from (select pcn_no from pcn group by pcn_no having count(*) not between 1 and 3 or count(distinct customer_code) <> 1 or count(distinct pcn_date) <> 1) x`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from pcn_invoices a join invoices i on i.invoice_no = a.invoice_no
      where a.adjusted_amount <= 0 or a.adjusted_amount > i.amount or i.customer_code <> (select min(p.customer_code) from pcn p where p.pcn_no = a.pcn_no)`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from pcn_debit_notes d where not exists (select 1 from pcn p where p.pcn_no = d.pcn_no and p.status = 'BOUNCED')`,
      ),
    ).toBe(0);
    expect(
      await count(
        engine,
        `select count(*) as n from pcn where payment_method in ('CHEQUE', 'DD') and (cheque_no is null or cheque_date is null or bank_name is null)`,
      ),
    ).toBe(0);
    const types = await sql<{
      payment_type: string;
    }>`select distinct payment_type from pcn order by payment_type`.execute(engine.db);
    expect(types.rows.map((r) => r.payment_type)).toEqual(['ADVANCE', 'CURRENT', 'PDC']);
    // Cheques dated after the as-of date cannot have been presented yet.
    expect(
      await count(
        engine,
        `select count(*) as n from pcn where cheque_date > '2026-05-15' and status not in ('RECEIVED', 'CANCELLED')`,
      ),
    ).toBe(0);
  });

  it('has every activity decision taken by a manager above the officer, after the activity', async () => {
    const users = new Map(
      (await engine.db.selectFrom('users').select(['id', 'manager_id']).execute()).map((u) => [u.id, u.manager_id]),
    );
    const isAbove = (manager: string, officer: string) => {
      for (let m = users.get(officer); m; m = users.get(m)) if (m === manager) return true;
      return false;
    };
    const activities = await engine.db.selectFrom('activities').selectAll().execute();
    for (const a of activities) {
      if (a.status === 'PENDING') {
        expect([a.decided_by, a.decided_at]).toEqual([null, null]);
      } else {
        expect(isAbove(a.decided_by!, a.sales_officer_id)).toBe(true);
        expect(a.decided_at!.slice(0, 10) > a.activity_date).toBe(true);
      }
      if (a.status === 'REJECTED') expect(a.remarks).toBeTruthy();
    }
    expect(new Set(activities.map((a) => a.status))).toEqual(new Set(['PENDING', 'APPROVED', 'REJECTED']));
  });

  it('links some enquiries to activities of the same customer and to the customer ordered for', async () => {
    expect(
      await count(
        engine,
        `select count(*) as n from enquiries e join activities a on a.activity_no = e.activity_no where a.customer_code <> e.customer_code or a.activity_date > e.enquiry_date`,
      ),
    ).toBe(0);
    expect(await count(engine, `select count(*) as n from enquiries where activity_no is not null`)).toBeGreaterThan(0);
    expect(
      await count(engine, `select count(*) as n from enquiries where order_to_customer is not null`),
    ).toBeGreaterThan(0);
    expect(await count(engine, `select count(*) as n from complaints where status = 'OPEN'`)).toBeGreaterThan(0);
    expect(await count(engine, `select count(*) as n from complaints where status = 'RESOLVED'`)).toBeGreaterThan(0);
  });

  it('has warranty requests in every status, with transport details from dispatch on', async () => {
    const requests = await engine.db.selectFrom('warranty_requests').selectAll().orderBy('change_seq').execute();
    expect(new Set(requests.map((r) => r.status))).toEqual(
      new Set(['SUBMITTED', 'DISPATCHED', 'RECEIVED', 'APPROVED', 'REJECTED', 'CLOSED']),
    );
    for (const r of requests) {
      expect(r.request_no).toMatch(/^WR\d{7}$/);
      const shipped = r.status !== 'SUBMITTED';
      expect([r.transporter, r.lr_no, r.lr_date, r.vehicle_no].every((v) => v !== null)).toBe(shipped);
      expect(r.updated_at >= r.created_at).toBe(true);
      expect(r.updated_at.slice(0, 10) <= '2026-05-15').toBe(true);
    }
    // The sync order (change_seq) follows updated_at.
    for (let i = 1; i < requests.length; i++) expect(requests[i].updated_at >= requests[i - 1].updated_at).toBe(true);
    expect(
      await count(
        engine,
        `select count(*) as n from warranty_requests w join invoices i on i.invoice_no = w.invoice_no where i.customer_code <> w.customer_code or w.purchase_date <> i.invoice_date`,
      ),
    ).toBe(0);
  });

  it('stores warranty files whose size and sha256 are those of their content', async () => {
    const files = await engine.db.selectFrom('warranty_files').selectAll().execute();
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      expect(f.file_id).toMatch(/^WF\d{7}$/);
      expect(f.size_bytes).toBe(f.content.length);
      expect(f.sha256).toBe(createHash('sha256').update(f.content).digest('hex'));
    }
    expect(new Set(files.map((f) => f.content_type))).toEqual(new Set(['image/png', 'image/jpeg', 'application/pdf']));
  });

  it('sets the counters past every number it used, so new requests continue the sequences', async () => {
    const counters = Object.fromEntries(
      (await engine.db.selectFrom('counters').selectAll().execute()).map((c) => [c.name, Number(c.value)]),
    );
    const max = async (query: string) => count(engine, query);
    expect(counters.warranty_request_no).toBeGreaterThanOrEqual(
      await max(`select max(cast(substr(request_no, 3) as integer)) as n from warranty_requests`),
    );
    expect(counters.warranty_change_seq).toBeGreaterThanOrEqual(
      await max(`select max(change_seq) as n from warranty_requests`),
    );
    expect(counters.warranty_file_id).toBeGreaterThanOrEqual(
      await max(`select max(cast(substr(file_id, 3) as integer)) as n from warranty_files`),
    );
    expect(counters.warranty_request_no).toBe(summary.rows.warranty_requests);
  });

  it('refuses a database that already holds data, and leaves it as it was', async () => {
    expect(await isEmpty(engine)).toBe(false);
    await expect(seed(engine, OPTIONS)).rejects.toThrow(DatabaseNotEmptyError);
    expect(await count(engine, 'select count(*) as n from orders')).toBe(summary.rows.orders);
    expect(await seedIfEmpty(engine, OPTIONS)).toBeNull();
  });

  it('writes the same data for the same scale and as-of date', async () => {
    const again = await freshEngine(kind);
    const other = await freshEngine(kind);
    try {
      expect(await isEmpty(again)).toBe(true);
      const second = await seedIfEmpty(again, OPTIONS);
      expect(second?.rows).toEqual(summary.rows);
      expect(await seedIfEmpty(again, OPTIONS)).toBeNull();
      const hash = await contentHash(engine);
      expect(await contentHash(again)).toBe(hash);
      await seed(other, { ...OPTIONS, asOf: '2026-05-16' });
      expect(await contentHash(other)).not.toBe(hash);
    } finally {
      await again.close();
      await other.close();
    }
  });
});

describe('seed options', () => {
  it.each([
    [{ scale: 0 }, /scale/],
    [{ scale: -1 }, /scale/],
    [{ scale: Number.NaN }, /scale/],
    [{ scale: 1, asOf: '2026-02-30' }, /asOf/],
    [{ scale: 1, asOf: '15/05/2026' }, /asOf/],
    [{ scale: 1, fiscalYearStartMonth: 13 }, /fiscalYearStartMonth/],
  ])('rejects %p', async (options, message) => {
    const engine = await freshEngine('sqlite');
    try {
      await expect(seed(engine, options)).rejects.toThrow(message);
      expect(await isEmpty(engine)).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
