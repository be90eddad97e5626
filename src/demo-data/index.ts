/**
 * The demo data generator (docs/behaviour.md, "Demo data"): the same company for the same scale and
 * as-of date. seedIfEmpty runs at server start, `npm run seed` on demand.
 */
import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db/engine';
import type { Database, TableName } from '../db/schema';
import { formatDay, monthsBetween, parseDay, periodStart, type Day, type Month } from './calendar';
import { dateOf } from '../operations/parse';
import { buildCompany, masterRows, type Company } from './masters';
import { Random } from './random';
import { DocumentNumbers, MonthBatch } from './batch';
import { collectAdvance, collectOpening, collectPcn, receive } from './collections';
import { logFieldWork } from './field-work';
import type { Customer } from './model';
import { RowWriter, writeBatch, writeWarrantyRequests } from './rows';
import { deliver, placeOrders } from './sales';
import { newCustomerState, stateOf, type SimEvent, type Simulation } from './simulation';
import { numberWarrantyRequests, raiseWarrantyRequests, sampleWarrantyFiles } from './warranty';
import { rebuildSummaries } from '../summaries/upkeep';

export type SeededTable = Exclude<TableName, 'counters'>;

/** Parents before children: the order inserts need (deletes go backwards). */
export const SEEDED_TABLES: SeededTable[] = [
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
  'pcn',
  'pcn_invoices',
  'pcn_debit_notes',
  'ledger_entries',
  'activities',
  'enquiries',
  'complaints',
  'warranty_requests',
  'warranty_files',
];

export interface SeedOptions {
  /** A positive number: 1 is ~3,000 customers and hundreds of thousands of rows; 10 the benchmark size. */
  scale: number;
  /** 'yyyy-MM-dd', the last day with data; today (UTC) when left out. */
  asOf?: string;
  /** 1..12, the month a fiscal year starts in; April (4) when left out. */
  fiscalYearStartMonth?: number;
}

/** What seed wrote: `from` is the first day of the generated period (start of the previous fiscal year). */
export type SeedSummary = Awaited<ReturnType<typeof seed>>;

/** Thrown when seed is asked to fill a database that already holds data. */
export class DatabaseNotEmptyError extends Error {
  constructor(detail: string) {
    super(`the database is not empty (${detail}); the demo data is only written into an empty database`);
    this.name = 'DatabaseNotEmptyError';
  }
}

export const MAX_SCALE = 1000;

/** Fills an empty, migrated database in one transaction. */
export async function seed(engine: Engine, options: SeedOptions) {
  const { scale, asOf, fiscalYearStartMonth } = checkOptions(options);
  const started = Date.now();
  const asOfDay = parseDay(asOf)!;
  const start = periodStart(asOfDay, fiscalYearStartMonth);
  const counts = await engine.db.transaction().execute(async (trx) => {
    // Two processes seeding one PostgreSQL at once wait on this row lock, so the second finds the data.
    await trx
      .updateTable('counters')
      .set((eb) => ({ value: eb.ref('value') }))
      .where('name', '=', 'warranty_request_no')
      .execute();
    const filled = await firstFilledTable(trx);
    if (filled) throw new DatabaseNotEmptyError(`table ${filled} has rows`);
    const writer = new RowWriter(trx);
    // The company depends on the scale alone; its history also on the period.
    const company = buildCompany(new Random(`mobileapp-demo:${scale}:masters`), scale);
    const masters = masterRows(company);
    for (const table of Object.keys(masters) as (keyof typeof masters)[]) await writer.insert(table, masters[table]);
    const numbers = await generateTransactions(
      writer,
      company,
      new Random(`mobileapp-demo:${scale}:${asOf}:${fiscalYearStartMonth}:transactions`),
      start,
      asOfDay,
    );
    // New requests and files continue the sequences (schema.ts, Database['counters']).
    await setCounter(trx, 'warranty_request_no', numbers.count('warrantyRequest'));
    await setCounter(trx, 'warranty_change_seq', numbers.count('warrantyRequest'));
    await setCounter(trx, 'warranty_file_id', numbers.count('warrantyFile'));
    // The reports' summary data, from the rows just written, in the same transaction.
    await rebuildSummaries(trx);
    return writer.counts;
  });
  // Fresh statistics for the query planners: without them SQLite walks the order lines in key order
  // instead of using the date indexes the reports filter on.
  await sql`analyze`.execute(engine.db);
  const rows = Object.fromEntries(SEEDED_TABLES.map((t) => [t, counts[t] ?? 0])) as Record<SeededTable, number>;
  const totalRows = Object.values(rows).reduce((sum, n) => sum + n, 0);
  return { scale, asOf, from: formatDay(start), rows, totalRows, millis: Date.now() - started };
}

/** Seeds scale 1 (or the given scale) when the database holds no data; null when it already did. */
export async function seedIfEmpty(engine: Engine, options: Partial<SeedOptions> = {}): Promise<SeedSummary | null> {
  if (!(await isEmpty(engine))) return null;
  try {
    return await seed(engine, {
      scale: options.scale ?? 1,
      asOf: options.asOf,
      fiscalYearStartMonth: options.fiscalYearStartMonth,
    });
  } catch (err) {
    // Another process seeded it first (several servers starting on one PostgreSQL).
    if (err instanceof DatabaseNotEmptyError) return null;
    throw err;
  }
}

export async function isEmpty(engine: Engine): Promise<boolean> {
  return (await firstFilledTable(engine.db)) === undefined;
}

async function firstFilledTable(db: Kysely<Database>): Promise<string | undefined> {
  for (const table of SEEDED_TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.lit(1).as('one'))
      .limit(1)
      .executeTakeFirst();
    if (row) return table;
  }
  return undefined;
}

async function setCounter(db: Kysely<Database>, name: string, value: number): Promise<void> {
  await db.updateTable('counters').set({ value }).where('name', '=', name).execute();
}

function checkOptions(options: SeedOptions): Required<SeedOptions> {
  const { scale } = options;
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale <= 0 || scale > MAX_SCALE) {
    throw new RangeError(`scale: ${String(scale)} is not a positive number up to ${MAX_SCALE}`);
  }
  const asOf = options.asOf ?? dateOf(new Date());
  if (parseDay(asOf) === undefined) throw new RangeError(`asOf: '${asOf}' is not a date (use yyyy-MM-dd)`);
  const fiscalYearStartMonth = options.fiscalYearStartMonth ?? 4;
  if (!Number.isInteger(fiscalYearStartMonth) || fiscalYearStartMonth < 1 || fiscalYearStartMonth > 12) {
    throw new RangeError(`fiscalYearStartMonth: ${fiscalYearStartMonth} is not a month (1-12)`);
  }
  return { scale, asOf, fiscalYearStartMonth };
}

/**
 * The business of the period, month by month. Each month is numbered and written before the next is
 * generated, so memory stays bounded whatever the scale; warranty requests are written at the end.
 */
async function generateTransactions(
  writer: RowWriter,
  company: Company,
  random: Random,
  start: Day,
  asOf: Day,
): Promise<DocumentNumbers> {
  const numbers = new DocumentNumbers();
  const sim: Simulation = { random, company, start, asOf, batch: new MonthBatch(), states: new Map(), warranty: [] };
  for (const customer of company.customers) sim.states.set(customer.code, newCustomerState());
  sim.batch.openings = company.customers;
  for (const customer of company.customers) collectOpening(sim, customer);
  for (const month of monthsBetween(start, asOf)) {
    for (const customer of company.customers) simulateMonth(sim, customer, month);
    numbers.numberBatch(sim.batch);
    await writeBatch(writer, sim.batch, start);
    sim.batch = new MonthBatch();
  }
  numberWarrantyRequests(sim.warranty, numbers);
  await writeWarrantyRequests(writer, sim.warranty);
  await writer.insert('warranty_files', sampleWarrantyFiles(sim.warranty, numbers));
  return numbers;
}

function simulateMonth(sim: Simulation, customer: Customer, month: Month): void {
  placeOrders(sim, customer, month);
  if (month.workingDays.length > 0) collectAdvance(sim, customer, sim.random.pick(month.workingDays));
  const queue = stateOf(sim, customer).queue;
  for (let event = queue.takeDue(month.last); event; event = queue.takeDue(month.last)) handle(sim, customer, event);
  logFieldWork(sim, customer, month);
  raiseWarrantyRequests(sim, customer, month);
}

function handle(sim: Simulation, customer: Customer, event: SimEvent): void {
  switch (event.kind) {
    case 'invoice':
      deliver(sim, event.date, event.order, event.deliveries);
      break;
    case 'receipt':
      receive(sim, customer, event.date, event.amount, event.method, event.reference);
      break;
    case 'pcn':
      collectPcn(sim, customer, event.date);
      break;
    case 'debitNote':
      sim.batch.debitNotes.push({
        no: '',
        date: event.date,
        customer,
        pcn: event.pcn,
        amount: event.amount,
        reason: event.reason,
      });
      break;
    case 'creditNote':
      sim.batch.creditNotes.push({ no: '', date: event.date, customer, amount: event.amount });
      stateOf(sim, customer).onAccount += event.amount;
      break;
  }
}

/** Empties every table the demo data fills and restarts the counters, in one transaction (seed --reset). */
export async function clearDatabase(engine: Engine): Promise<void> {
  await engine.db.transaction().execute(async (trx) => {
    for (const table of [...SEEDED_TABLES].reverse()) await trx.deleteFrom(table).execute();
    await trx.updateTable('counters').set({ value: 0 }).execute();
  });
}
