/**
 * The CSV import against a real database on every engine: CSV files written to a temporary directory,
 * loaded with the same functions the command uses, and the stored rows read back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { ENGINES, freshEngine } from '../../test/support/engines';
import type { Engine } from '../db/engine';
import { findImportFiles } from './import-files';
import { runImport, type FileResult, type RejectLine } from './import-run';
import { checkSummaries } from '../summaries/check';

/** A small company, every table, written the way a legacy export may write it. */
const COMPANY: Record<string, string> = {
  'zones.csv': '\ufeffcode,name\r\nN,North\r\nS,South\r\n',
  'states.csv': 'CODE,Name,Zone_Code\nDL,Delhi,N\nKA,Karnataka,S\n',
  'profit_centers.csv': 'code,name\nPC1,Pumps Division\nPC2,"Motors, Drives"\n',
  'product_categories.csv': 'code,name\nCAT01,Pumps\nCAT02,Motors\n',
  'products.csv':
    'code,name,category_code,unit_price\nP001,"Pump 1HP ""Super""",CAT01,1500\nP002,Motor 2HP,CAT02,2450.5\n',
  // Officers before their managers: the import stores the managers first.
  'users.csv':
    [
      'id,username,name,role,manager_id,zone_code,active',
      'SO01,Ravi.Kumar,Ravi Kumar,so,AM01,N,1',
      'AM01,anil,Anil Rao,AM,ZM01,N,',
      'ZM01,zoya,Zoya Khan,ZM,ADM001,N,true',
      'ADM001,Admin,Administrator,ADMIN,,,1',
      'SO02,sita,Sita Iyer,SO,AM01,S,0',
    ].join('\n') + '\n',
  'customers.csv':
    'code,name,state_code,sales_officer_id,credit_limit\nC001,Acme Traders,DL,SO01,100000.00\nC002,Bharat Pumps,KA,SO02,\n',
  'customer_profit_centers.csv': 'customer_code,profit_center_code\nC001,PC1\nC001,PC2\nC002,PC1\n',
  'orders.csv':
    'order_no,order_date,customer_code,sales_officer_id,profit_center_code,status\nO1,2026-04-02,C001,SO01,PC1,open\nO2,15/04/2026,C002,SO02,PC2,CLOSED\n',
  'order_lines.csv':
    'order_no,line_no,product_code,category_code,quantity,value\nO1,1,P001,CAT01,2,3000\nO1,2,P002,CAT02,1,2450.50\nO2,1,P002,CAT02,4,9802\n',
  'invoices.csv':
    'invoice_no,invoice_date,customer_code,sales_officer_id,profit_center_code,order_no,amount\nI1,2026-04-10,C001,SO01,PC1,O1,3000\nI2,2026-04-20,C002,SO02,PC2,,-120.75\n',
  'invoice_lines.csv':
    'invoice_no,line_no,product_code,category_code,quantity,value,order_no,order_line_no\nI1,1,P001,CAT01,2,3000,O1,1\nI2,1,P002,CAT02,-1,-120.75,,\n',
  'receipts.csv':
    'receipt_no,receipt_date,customer_code,sales_officer_id,payment_method,reference,amount\nR1,2026-04-25,C001,SO01,neft,UTR123,2000\nR2,2026-04-26,C002,SO02,CASH,,50.05\n',
  'ledger_entries.csv':
    'customer_code,entry_date,doc_type,doc_no,debit,credit\nC001,2026-04-01,OPENING,OB-C001,500,\nC001,2026-04-10,INVOICE,I1,3000,0\nC001,2026-04-25,RECEIPT,R1,,2000\n',
  'pcn.csv':
    'pdc_id,pcn_no,pcn_date,customer_code,sales_officer_id,payment_type,payment_method,cheque_no,cheque_date,bank_name,amount,status\nPDC1,PCN1,2026-04-25,C001,SO01,PDC,CHEQUE,000123,2026-05-10,State Bank,1000,RECEIVED\nPDC2,PCN1,2026-04-25,C001,SO01,CURRENT,NEFT,,,,500,CLEARED\n',
  'pcn_invoices.csv': 'pcn_no,invoice_no,adjusted_amount\nPCN1,I1,1500\n',
  'pcn_debit_notes.csv':
    'debit_note_no,pcn_no,note_date,amount,reason\nDN1,PCN1,2026-04-28,25,"Cheque returned,\nbank charges"\n',
  'activities.csv':
    'activity_no,activity_date,activity_type,customer_code,sales_officer_id,description,status,decided_by,decided_at,remarks\nA1,2026-04-05,VISIT,C001,SO01,Quarterly visit,APPROVED,AM01,2026-04-06T09:30:00Z,ok\nA2,2026-04-07,DEMO,C002,SO02,Pump demo,PENDING,,,\n',
  'enquiries.csv':
    'enquiry_no,enquiry_date,customer_code,sales_officer_id,description,activity_no,order_to_customer,updated_at\nE1,2026-04-05,C001,SO01,Needs 5 pumps,A1,C001,2026-04-05T10:00:00+05:30\nE2,2026-04-08,C002,SO02,Price list,,,\n',
  'complaints.csv':
    'complaint_no,complaint_date,customer_code,sales_officer_id,product_code,description,status\nCP1,2026-04-09,C001,SO01,P001,Noisy motor,OPEN\n',
  'warranty_requests.csv':
    'request_no,client_request_id,customer_code,sales_officer_id,product_code,serial_no,invoice_no,purchase_date,complaint,status,transporter,lr_no,lr_date,vehicle_no,created_at,updated_at\n' +
    'WR0000041,app-1,C001,SO01,P001,SN1,I1,2026-04-10,Does not start,DISPATCHED,Blue Dart,LR9,2026-04-12,KA01AB1234,2026-04-11T08:00:00Z,2026-04-12T09:00:00Z\n' +
    'WR0000007,,C002,SO02,P002,SN2,,,Leaks,SUBMITTED,,,,,2026-04-21 10:15:00,\n',
};

function writeExport(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

async function importDir(engine: Engine, dir: string, options: { dryRun?: boolean; batchRows?: number } = {}) {
  const rejects: RejectLine[] = [];
  const { files } = findImportFiles(dir);
  const results = await runImport(
    engine,
    files,
    { dryRun: options.dryRun ?? false, dateOrder: 'DMY', batchRows: options.batchRows },
    {
      reject: (r) => rejects.push(r),
      fileDone: () => undefined,
    },
  );
  const byFile = Object.fromEntries(results.map((r) => [r.file, r])) as Record<string, FileResult>;
  return { results, byFile, rejects };
}

async function countRows(engine: Engine): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of Object.keys(COMPANY)) {
    const table = name.replace('.csv', '') as 'zones';
    const row = await engine.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

async function counter(engine: Engine, name: string): Promise<number> {
  const row = await engine.db.selectFrom('counters').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return Number(row.value);
}

/** A database failure no validation foresees: a trigger on `table` that refuses the rows `when` (SQL on `new`) holds for. */
async function refuseRows(engine: Engine, table: string, when: string, message: string): Promise<void> {
  if (engine.kind === 'sqlite') {
    await sql
      .raw(
        `create trigger ${table}_refuse before insert on ${table} when ${when} begin select raise(abort, '${message}'); end`,
      )
      .execute(engine.db);
  } else {
    await sql
      .raw(
        `create function ${table}_refuse() returns trigger language plpgsql as $$ begin if ${when} then raise exception '${message}'; end if; return new; end $$`,
      )
      .execute(engine.db);
    await sql
      .raw(`create trigger ${table}_refuse before insert on ${table} for each row execute function ${table}_refuse()`)
      .execute(engine.db);
  }
}

async function allowRows(engine: Engine, table: string): Promise<void> {
  await sql.raw(`drop trigger ${table}_refuse${engine.kind === 'sqlite' ? '' : ` on ${table}`}`).execute(engine.db);
}

const behind = (engine: Engine) =>
  engine.db.selectFrom('summary_facts').select('name').where('name', 'like', 'behind:%').execute();

describe.each(ENGINES)('CSV import: %s', (kind) => {
  let engine: Engine;
  beforeEach(async () => {
    engine = await freshEngine(kind);
  });
  afterEach(async () => {
    await engine.close();
  });

  it('an import stopped between the files of a summary family leaves it noted as behind, and the next import derives it anew first', async () => {
    const { files } = findImportFiles(writeExport(COMPANY));
    const stopAfterOrderLines = {
      reject: () => undefined,
      fileDone: (r: FileResult) => {
        if (r.table === 'order_lines') throw new Error('stopped');
      },
    };
    await expect(runImport(engine, files, { dryRun: false, dateOrder: 'DMY' }, stopAfterOrderLines)).rejects.toThrow(
      'stopped',
    );
    expect(await behind(engine)).toEqual([{ name: 'behind:orders' }]);
    expect((await checkSummaries(engine.db)).inStep).toBe(false);

    const { results } = await importDir(engine, writeExport({ 'zones.csv': COMPANY['zones.csv'] }));
    expect(results.map((r) => r.status)).toEqual(['loaded']);
    expect(await behind(engine)).toEqual([]);
    expect((await checkSummaries(engine.db)).inStep).toBe(true);
  });

  it('a summary refresh the database refuses fails the import after every file is loaded, its family left noted as behind', async () => {
    await refuseRows(engine, 'receipt_period_totals', 'true', 'receipt summary refused');
    const { files } = findImportFiles(writeExport(COMPANY));
    const done: FileResult[] = [];
    await expect(
      runImport(
        engine,
        files,
        { dryRun: false, dateOrder: 'DMY' },
        { reject: () => undefined, fileDone: (r) => done.push(r) },
      ),
    ).rejects.toThrow('receipt summary refused');
    expect(done.map((r) => r.status)).toEqual(files.map(() => 'loaded'));
    expect(await behind(engine)).toEqual([{ name: 'behind:receipts' }]);
    await allowRows(engine, 'receipt_period_totals');
    expect((await checkSummaries(engine.db)).inStep).toBe(false);

    await importDir(engine, writeExport({ 'zones.csv': COMPANY['zones.csv'] }));
    expect(await behind(engine)).toEqual([]);
    expect((await checkSummaries(engine.db)).inStep).toBe(true);
  });

  it('loads a small company into every table, parents first, and the rows read back as stored values', async () => {
    const { results, rejects } = await importDir(engine, writeExport(COMPANY));

    expect(rejects).toEqual([]);
    expect(results.map((r) => r.table)).toEqual([
      'zones',
      'states',
      'profit_centers',
      'product_categories',
      'products',
      'users',
      'customers',
      'customer_profit_centers',
      'orders',
      'order_lines',
      'invoices',
      'invoice_lines',
      'receipts',
      'ledger_entries',
      'pcn',
      'pcn_invoices',
      'pcn_debit_notes',
      'activities',
      'enquiries',
      'complaints',
      'warranty_requests',
    ]);
    expect(
      results.every((r) => r.status === 'loaded' && r.rejected === 0 && r.updated === 0 && r.inserted === r.read),
    ).toBe(true);
    expect(await countRows(engine)).toEqual({
      zones: 2,
      states: 2,
      profit_centers: 2,
      product_categories: 2,
      products: 2,
      users: 5,
      customers: 2,
      customer_profit_centers: 3,
      orders: 2,
      order_lines: 3,
      invoices: 2,
      invoice_lines: 2,
      receipts: 2,
      ledger_entries: 3,
      pcn: 2,
      pcn_invoices: 1,
      pcn_debit_notes: 1,
      activities: 2,
      enquiries: 2,
      complaints: 1,
      warranty_requests: 2,
    });

    const db = engine.db;
    expect(await db.selectFrom('profit_centers').selectAll().where('code', '=', 'PC2').executeTakeFirst()).toEqual({
      code: 'PC2',
      name: 'Motors, Drives',
    });
    expect(await db.selectFrom('products').select(['name', 'unit_price']).orderBy('code').execute()).toEqual([
      { name: 'Pump 1HP "Super"', unit_price: 150000 },
      { name: 'Motor 2HP', unit_price: 245050 },
    ]);
    expect(await db.selectFrom('users').selectAll().orderBy('id').execute()).toEqual([
      {
        id: 'ADM001',
        username: 'admin',
        name: 'Administrator',
        role: 'ADMIN',
        manager_id: null,
        zone_code: null,
        active: 1,
      },
      { id: 'AM01', username: 'anil', name: 'Anil Rao', role: 'AM', manager_id: 'ZM01', zone_code: 'N', active: 1 },
      {
        id: 'SO01',
        username: 'ravi.kumar',
        name: 'Ravi Kumar',
        role: 'SO',
        manager_id: 'AM01',
        zone_code: 'N',
        active: 1,
      },
      { id: 'SO02', username: 'sita', name: 'Sita Iyer', role: 'SO', manager_id: 'AM01', zone_code: 'S', active: 0 },
      { id: 'ZM01', username: 'zoya', name: 'Zoya Khan', role: 'ZM', manager_id: 'ADM001', zone_code: 'N', active: 1 },
    ]);
    expect(
      await db.selectFrom('customers').select(['code', 'credit_limit', 'active']).orderBy('code').execute(),
    ).toEqual([
      { code: 'C001', credit_limit: 10000000, active: 1 },
      { code: 'C002', credit_limit: 0, active: 1 },
    ]);
    expect(
      await db.selectFrom('orders').select(['order_no', 'order_date', 'status']).orderBy('order_no').execute(),
    ).toEqual([
      { order_no: 'O1', order_date: '2026-04-02', status: 'OPEN' },
      { order_no: 'O2', order_date: '2026-04-15', status: 'CLOSED' },
    ]);
    expect(await db.selectFrom('invoice_lines').selectAll().orderBy('invoice_no').execute()).toEqual([
      {
        invoice_no: 'I1',
        line_no: 1,
        product_code: 'P001',
        category_code: 'CAT01',
        quantity: 2,
        value: 300000,
        order_no: 'O1',
        order_line_no: 1,
      },
      {
        invoice_no: 'I2',
        line_no: 1,
        product_code: 'P002',
        category_code: 'CAT02',
        quantity: -1,
        value: -12075,
        order_no: null,
        order_line_no: null,
      },
    ]);
    expect(
      await db
        .selectFrom('receipts')
        .select(['receipt_no', 'payment_method', 'reference', 'amount'])
        .orderBy('receipt_no')
        .execute(),
    ).toEqual([
      { receipt_no: 'R1', payment_method: 'NEFT', reference: 'UTR123', amount: 200000 },
      { receipt_no: 'R2', payment_method: 'CASH', reference: '', amount: 5005 },
    ]);
    expect(
      await db.selectFrom('ledger_entries').select(['doc_no', 'debit', 'credit']).orderBy('entry_date').execute(),
    ).toEqual([
      { doc_no: 'OB-C001', debit: 50000, credit: 0 },
      { doc_no: 'I1', debit: 300000, credit: 0 },
      { doc_no: 'R1', debit: 0, credit: 200000 },
    ]);
    expect(
      await db
        .selectFrom('pcn')
        .select(['pdc_id', 'cheque_no', 'cheque_date', 'bank_name'])
        .orderBy('pdc_id')
        .execute(),
    ).toEqual([
      { pdc_id: 'PDC1', cheque_no: '000123', cheque_date: '2026-05-10', bank_name: 'State Bank' },
      { pdc_id: 'PDC2', cheque_no: null, cheque_date: null, bank_name: null },
    ]);
    expect(await db.selectFrom('pcn_debit_notes').select('reason').executeTakeFirst()).toEqual({
      reason: 'Cheque returned,\nbank charges',
    });
    expect(
      await db.selectFrom('activities').select(['activity_no', 'decided_at']).orderBy('activity_no').execute(),
    ).toEqual([
      { activity_no: 'A1', decided_at: '2026-04-06T09:30:00.000Z' },
      { activity_no: 'A2', decided_at: null },
    ]);
    expect(
      await db.selectFrom('enquiries').select(['enquiry_no', 'updated_at']).orderBy('enquiry_no').execute(),
    ).toEqual([
      { enquiry_no: 'E1', updated_at: '2026-04-05T04:30:00.000Z' },
      { enquiry_no: 'E2', updated_at: '2026-04-08T00:00:00.000Z' },
    ]);
    const requests = await db.selectFrom('warranty_requests').selectAll().orderBy('change_seq').execute();
    expect(
      requests.map((r) => [r.request_no, r.client_request_id, r.created_at, r.updated_at, r.version, r.change_seq]),
    ).toEqual([
      ['WR0000041', 'app-1', '2026-04-11T08:00:00.000Z', '2026-04-12T09:00:00.000Z', 1, 1],
      ['WR0000007', null, '2026-04-21T10:15:00.000Z', '2026-04-21T10:15:00.000Z', 1, 2],
    ]);
    expect(await counter(engine, 'warranty_change_seq')).toBe(2);
    // The server's next request number follows the highest imported one.
    expect(await counter(engine, 'warranty_request_no')).toBe(41);
  });

  it('rejects bad rows with their line and column, stores none of them, and loads the good rows', async () => {
    const dir = writeExport({
      ...COMPANY,
      'orders.csv':
        [
          'order_no,order_date,customer_code,sales_officer_id,profit_center_code,status',
          'O1,2026-04-02,C001,SO01,PC1,OPEN',
          'O3,31/02/2026,C001,SO01,PC1,OPEN',
          'O4,2026-04-03,C999,SO01,PC1,OPEN',
          'O5,2026-04-03,C001,SO01,PC1,SHIPPED',
          'O6,2026-04-03,,SO01,PC1,OPEN',
          'O2,15/04/2026,C002,SO02,PC2,CLOSED',
          'O7,2026-04-03,C001,SO01',
        ].join('\n') + '\n',
      'products.csv':
        'code,name,category_code,unit_price\nP001,Pump,CAT01,1500\nP002,Motor 2HP,CAT02,2450.5\nP003,Valve,CAT01,12.345\nP004,Valve,CAT01,-5\n',
      'complaints.csv':
        'complaint_no,complaint_date,customer_code,sales_officer_id,product_code,status\nCP1,2026-04-09,C001,SO01,P001,OPEN\n',
      'receipts.csv':
        'receipt_no,receipt_date,customer_code,sales_officer_id,payment_method,reference,amount,Reference\nR1,2026-04-25,C001,SO01,NEFT,UTR123,2000,x\n',
    });
    const { byFile, rejects } = await importDir(engine, dir);

    expect(rejects.filter((r) => r.file === 'orders.csv')).toEqual([
      {
        file: 'orders.csv',
        line: 3,
        column: 'order_date',
        reason:
          "'31/02/2026' is not a date (use yyyy-MM-dd, dd/MM/yyyy, dd-MM-yyyy, dd.MM.yyyy, dd-MMM-yyyy or dd MMM yyyy)",
      },
      { file: 'orders.csv', line: 5, column: 'status', reason: "'SHIPPED' is not one of OPEN, CLOSED, CANCELLED" },
      { file: 'orders.csv', line: 6, column: 'customer_code', reason: 'is required and is empty' },
      { file: 'orders.csv', line: 8, column: '', reason: 'has 4 fields; the header has 6' },
      {
        file: 'orders.csv',
        line: 4,
        column: 'customer_code',
        reason: "'C999' is not a customers.code in the database or earlier in this import",
      },
    ]);
    expect(byFile['orders.csv']).toMatchObject({ status: 'loaded', read: 7, inserted: 2, updated: 0, rejected: 5 });
    expect(
      (await engine.db.selectFrom('orders').select('order_no').orderBy('order_no').execute()).map((r) => r.order_no),
    ).toEqual(['O1', 'O2']);

    expect(rejects.filter((r) => r.file === 'products.csv')).toEqual([
      {
        file: 'products.csv',
        line: 4,
        column: 'unit_price',
        reason: "'12.345' is not an amount (use digits with at most two decimals, e.g. 1234.50)",
      },
      { file: 'products.csv', line: 5, column: 'unit_price', reason: "'-5' is negative; this amount cannot be" },
    ]);
    expect(byFile['products.csv']).toMatchObject({ inserted: 2, rejected: 2 });

    // Header faults refuse the whole file: a missing required column, a column named twice.
    expect(rejects.filter((r) => r.file === 'complaints.csv')).toEqual([
      {
        file: 'complaints.csv',
        line: 1,
        column: 'description',
        reason: 'is a required column and is missing from the header',
      },
    ]);
    expect(rejects.filter((r) => r.file === 'receipts.csv')).toEqual([
      { file: 'receipts.csv', line: 1, column: 'reference', reason: 'appears twice in the header' },
    ]);
    expect(byFile['complaints.csv']).toMatchObject({ status: 'refused', read: 0, inserted: 0 });
    expect(byFile['receipts.csv']).toMatchObject({ status: 'refused', read: 0, inserted: 0 });
    expect(await engine.db.selectFrom('complaints').selectAll().execute()).toEqual([]);
    expect(await engine.db.selectFrom('receipts').selectAll().execute()).toEqual([]);

    // Rows that pointed at a rejected row are rejected in turn, with the reason.
    expect(rejects.some((r) => r.file === 'order_lines.csv')).toBe(false);
    expect(byFile['ledger_entries.csv']).toMatchObject({ inserted: 3, rejected: 0 });
  });

  it("takes one leading apostrophe off a text cell, the export's formula escape, and no other cell", async () => {
    const { byFile, rejects } = await importDir(
      engine,
      writeExport({
        'zones.csv': "code,name\n'=A,'North\nS,''South\nW,'\nE,=1+1\n",
        'states.csv': 'code,name,zone_code\nDL,"\'Delhi, NCR",\'=A\n',
        'product_categories.csv': 'code,name\nCAT01,Pumps\n',
        'products.csv': "code,name,category_code,unit_price\nP001,Pump,CAT01,'5\n",
      }),
    );
    expect(rejects).toEqual([
      { file: 'zones.csv', line: 4, column: 'name', reason: 'is required and is empty' },
      {
        file: 'products.csv',
        line: 2,
        column: 'unit_price',
        reason: "''5' is not an amount (use digits with at most two decimals, e.g. 1234.50)",
      },
    ]);
    expect(byFile['zones.csv']).toMatchObject({ inserted: 3, rejected: 1 });
    expect(await engine.db.selectFrom('zones').selectAll().orderBy('code').execute()).toEqual([
      { code: '=A', name: 'North' },
      { code: 'E', name: '=1+1' },
      { code: 'S', name: "'South" },
    ]);
    expect(await engine.db.selectFrom('states').selectAll().execute()).toEqual([
      { code: 'DL', name: 'Delhi, NCR', zone_code: '=A' },
    ]);
  });

  it('refuses a header with an unknown column, and a column the import assigns itself', async () => {
    const dir = writeExport({
      'zones.csv': 'code,name,colour\nN,North,red\n',
      'warranty_requests.csv': 'request_no,change_seq\nWR1,5\n',
    });
    const { byFile, rejects } = await importDir(engine, dir);
    expect(byFile['zones.csv'].status).toBe('refused');
    expect(rejects).toEqual([
      { file: 'zones.csv', line: 1, column: 'colour', reason: 'is not a column of zones (use code, name)' },
      {
        file: 'warranty_requests.csv',
        line: 1,
        column: 'change_seq',
        reason: 'is assigned by the import and cannot be given',
      },
      ...['customer_code', 'sales_officer_id', 'product_code', 'serial_no', 'complaint', 'status', 'created_at'].map(
        (column) => ({
          file: 'warranty_requests.csv',
          line: 1,
          column,
          reason: 'is a required column and is missing from the header',
        }),
      ),
    ]);
    expect(await engine.db.selectFrom('zones').selectAll().execute()).toEqual([]);
  });

  it('importing the same export twice changes nothing the second time and reports the rows as updated', async () => {
    const dir = writeExport(COMPANY);
    await importDir(engine, dir);
    const before = await countRows(engine);
    const requestsBefore = await engine.db.selectFrom('warranty_requests').selectAll().orderBy('request_no').execute();
    const usersBefore = await engine.db.selectFrom('users').selectAll().orderBy('id').execute();

    const second = await importDir(engine, dir);

    expect(second.rejects).toEqual([]);
    for (const r of second.results)
      expect([r.file, r.status, r.inserted, r.updated]).toEqual([r.file, 'loaded', 0, r.read]);
    expect(await countRows(engine)).toEqual(before);
    expect(await engine.db.selectFrom('warranty_requests').selectAll().orderBy('request_no').execute()).toEqual(
      requestsBefore,
    );
    expect(await engine.db.selectFrom('users').selectAll().orderBy('id').execute()).toEqual(usersBefore);
    expect(await counter(engine, 'warranty_change_seq')).toBe(2);
    expect(await counter(engine, 'warranty_request_no')).toBe(41);
  });

  it('checks again the references of unchanged rows that no foreign key holds (a PCN renumbered since)', async () => {
    await importDir(engine, writeExport(COMPANY));
    const renumbered = writeExport({
      'pcn.csv': COMPANY['pcn.csv'].replaceAll('PCN1', 'PCN9'),
      'pcn_invoices.csv': COMPANY['pcn_invoices.csv'],
    });
    const { rejects } = await importDir(engine, renumbered);
    expect(rejects).toEqual([
      {
        file: 'pcn_invoices.csv',
        line: 2,
        column: 'pcn_no',
        reason: "'PCN1' is not a pcn.pcn_no in the database or earlier in this import",
      },
    ]);
  });

  it('a changed warranty request takes a new change_seq and version; columns left out of the file keep their values', async () => {
    await importDir(engine, writeExport(COMPANY));
    const dir = writeExport({
      'warranty_requests.csv':
        'request_no,customer_code,sales_officer_id,product_code,serial_no,complaint,status,created_at\n' +
        'WR0000007,C002,SO02,P002,SN2,Leaks badly,SUBMITTED,2026-04-21T10:15:00Z\n' +
        'WR0000041,C001,SO01,P001,SN1,Does not start,DISPATCHED,2026-04-11T08:00:00Z\n' +
        'WR0000050,C001,SO01,P001,SN9,New one,SUBMITTED,2026-05-01T08:00:00Z\n',
      'customers.csv': 'code,name,state_code,sales_officer_id\nC001,Acme Traders Ltd,DL,SO01\n',
    });
    const { byFile } = await importDir(engine, dir);
    expect(byFile['warranty_requests.csv']).toMatchObject({ inserted: 1, updated: 2, rejected: 0 });

    const rows = await engine.db
      .selectFrom('warranty_requests')
      .select(['request_no', 'complaint', 'transporter', 'version', 'change_seq'])
      .orderBy('request_no')
      .execute();
    expect(rows).toEqual([
      { request_no: 'WR0000007', complaint: 'Leaks badly', transporter: null, version: 2, change_seq: 3 },
      { request_no: 'WR0000041', complaint: 'Does not start', transporter: 'Blue Dart', version: 1, change_seq: 1 },
      { request_no: 'WR0000050', complaint: 'New one', transporter: null, version: 1, change_seq: 4 },
    ]);
    expect(await counter(engine, 'warranty_request_no')).toBe(50);
    // credit_limit was not in the file: the stored value stays.
    expect(
      await engine.db
        .selectFrom('customers')
        .select(['name', 'credit_limit'])
        .where('code', '=', 'C001')
        .executeTakeFirst(),
    ).toEqual({ name: 'Acme Traders Ltd', credit_limit: 10000000 });
  });

  it("keeps a client_request_id unique per officer: another officer's row with the key is loaded, the same officer's refused", async () => {
    const header =
      'request_no,client_request_id,customer_code,sales_officer_id,product_code,serial_no,complaint,status,created_at';
    const row = (no: string, key: string, customer: string, officer: string) =>
      `${no},${key},${customer},${officer},P001,SN-${no},Noise,SUBMITTED,2026-04-11T08:00:00Z`;
    await importDir(
      engine,
      writeExport({
        ...COMPANY,
        'warranty_requests.csv': [header, row('WR0000001', 'app-9', 'C001', 'SO01')].join('\n') + '\n',
      }),
    );
    const { byFile, rejects } = await importDir(
      engine,
      writeExport({
        'warranty_requests.csv':
          [
            header,
            row('WR0000002', 'app-9', 'C002', 'SO02'),
            row('WR0000003', 'app-9', 'C001', 'SO01'),
            row('WR0000004', 'app-7', 'C002', 'SO02'),
            row('WR0000005', 'app-7', 'C002', 'SO02'),
          ].join('\n') + '\n',
      }),
    );
    expect(byFile['warranty_requests.csv']).toMatchObject({ read: 4, inserted: 2, rejected: 2 });
    expect(rejects.map((r) => [r.line, r.column, r.reason])).toEqual([
      [3, 'client_request_id', "'app-9' already belongs to warranty_requests WR0000001"],
      [5, 'client_request_id', "'app-7' is also given on line 4"],
    ]);
    const stored = await engine.db
      .selectFrom('warranty_requests')
      .select(['request_no', 'sales_officer_id', 'client_request_id'])
      .orderBy('request_no')
      .execute();
    expect(stored.map((r) => [r.request_no, r.sales_officer_id, r.client_request_id])).toEqual([
      ['WR0000001', 'SO01', 'app-9'],
      ['WR0000002', 'SO02', 'app-9'],
      ['WR0000004', 'SO02', 'app-7'],
    ]);
  });

  it('stores managers before their officers whatever the order, and rejects a cycle and unknown managers', async () => {
    const dir = writeExport({
      'users.csv':
        [
          'id,username,name,role,manager_id',
          'SO09,so9,Nine,SO,AM09',
          'AM09,am9,Am Nine,AM,ADM',
          'X1,x1,Loop One,AM,X2',
          'X2,x2,Loop Two,AM,X1',
          'SO10,so10,Ten,SO,NOBODY',
          'ADM,adm,Admin,ADMIN,',
          'SO11,AM9,Eleven,SO,AM09',
          'SO12,so12,Twelve,SO,SO12',
        ].join('\n') + '\n',
    });
    const { byFile, rejects } = await importDir(engine, dir, { batchRows: 2 });
    expect(byFile['users.csv']).toMatchObject({ read: 8, inserted: 3, rejected: 5 });
    expect(rejects.map((r) => [r.line, r.column, r.reason])).toEqual([
      [9, 'manager_id', 'a user cannot be its own manager'],
      [6, 'manager_id', "'NOBODY' is not a users.id in the database or earlier in this import"],
      [8, 'username', "'am9' already belongs to users AM09"],
      [4, 'manager_id', "'X2' cannot be loaded before this row: the manager_id values in this file form a cycle"],
      [5, 'manager_id', "'X1' cannot be loaded before this row: the manager_id values in this file form a cycle"],
    ]);
    expect((await engine.db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([
      'ADM',
      'AM09',
      'SO09',
    ]);
  });

  it('loads a file in many batches, a repeated key later in the file updating the earlier row', async () => {
    const lines = ['code,name'];
    for (let i = 1; i <= 1050; i++) lines.push(`Z${i},Zone ${i}`);
    lines.push('Z7,Zone seven again');
    const { byFile } = await importDir(engine, writeExport({ 'zones.csv': lines.join('\n') }), { batchRows: 100 });
    expect(byFile['zones.csv']).toMatchObject({ read: 1051, inserted: 1050, updated: 1, rejected: 0 });
    expect(
      await engine.db
        .selectFrom('zones')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
    ).toEqual({ n: 1050 });
    expect(await engine.db.selectFrom('zones').select('name').where('code', '=', 'Z7').executeTakeFirst()).toEqual({
      name: 'Zone seven again',
    });
  });

  it('a key of an earlier batch repeated after batches in key order updates its row', async () => {
    // Batches of 1,000 new rows set the table's foreign key aside (PostgreSQL); later batches in key order skip the lookup.
    const lines = ['code,name,zone_code'];
    for (let i = 1; i <= 2500; i++) lines.push(`S${String(i).padStart(4, '0')},State ${i},N`);
    lines.push('S0007,State seven again,N');
    const dir = writeExport({ 'zones.csv': 'code,name\nN,North\n', 'states.csv': lines.join('\n') });
    const { byFile } = await importDir(engine, dir, { batchRows: 1000 });
    expect(byFile['states.csv']).toMatchObject({ read: 2501, inserted: 2500, updated: 1, rejected: 0 });
    expect(
      await engine.db
        .selectFrom('states')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
    ).toEqual({ n: 2500 });
    expect(await engine.db.selectFrom('states').select('name').where('code', '=', 'S0007').executeTakeFirst()).toEqual({
      name: 'State seven again',
    });
  });

  it('rolls back the whole file when the database refuses a row, and goes on with the next file', async () => {
    await refuseRows(engine, 'zones', "new.code = 'BOOM'", 'zone BOOM refused');
    const dir = writeExport({
      'zones.csv': 'code,name\nN,North\nS,South\nE,East\nBOOM,Refused\n',
      'profit_centers.csv': 'code,name\nPC1,Pumps\n',
    });
    const { byFile } = await importDir(engine, dir, { batchRows: 2 });
    expect(byFile['zones.csv']).toMatchObject({ status: 'failed', inserted: 0, updated: 0 });
    expect(byFile['zones.csv'].error).toContain('zone BOOM refused');
    // The first batch (N, S) had been written before the failure: it is gone too.
    expect(await engine.db.selectFrom('zones').selectAll().execute()).toEqual([]);
    expect(byFile['profit_centers.csv']).toMatchObject({ status: 'loaded', inserted: 1 });
    expect(await engine.db.selectFrom('profit_centers').selectAll().execute()).toEqual([
      { code: 'PC1', name: 'Pumps' },
    ]);
  });

  it('a dry run reports what a real run would do and writes nothing', async () => {
    const dir = writeExport({
      ...COMPANY,
      'states.csv': 'code,name,zone_code\nDL,Delhi,N\nXX,Nowhere,Q\nKA,Karnataka,S\n',
    });
    const dry = await importDir(engine, dir, { dryRun: true });
    expect(Object.values(await countRows(engine)).every((n) => n === 0)).toBe(true);
    expect(await counter(engine, 'warranty_change_seq')).toBe(0);
    expect(await counter(engine, 'warranty_request_no')).toBe(0);

    const real = await importDir(engine, dir);
    expect(dry.results).toEqual(real.results);
    expect(dry.rejects).toEqual(real.rejects);
    expect(real.rejects).toEqual([
      {
        file: 'states.csv',
        line: 3,
        column: 'zone_code',
        reason: "'Q' is not a zones.code in the database or earlier in this import",
      },
    ]);
  });

  it('reports a record the CSV parser cannot read and keeps reading', async () => {
    const dir = writeExport({ 'zones.csv': 'code,name\nN,North\nS,So"uth\nE,East\nW,West\n' });
    const { byFile, rejects } = await importDir(engine, dir);
    expect(rejects).toHaveLength(1);
    expect(rejects[0]).toMatchObject({ file: 'zones.csv', line: 3, column: '' });
    expect(rejects[0].reason).toMatch(/quote/i);
    expect(byFile['zones.csv']).toMatchObject({ read: 4, inserted: 3, rejected: 1 });
  });
});
