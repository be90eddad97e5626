/**
 * Keeps the summary data (docs/summaries.md) in step with the raw rows, in the writer's transaction.
 * A customer's summary rows derive from its raw rows alone, so a write refreshes just the customers
 * it touched: their rows are deleted and inserted anew (days from raw rows, months, then years).
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';
import { inValues } from '../db/sql-in';
import { summarySql, type SummarySql } from './engine-sql';
import { SUMMARY_REFRESH_CUSTOMERS } from '../tunables';

type Db = Kysely<Database>;

/** Every customer, or the given stored customer codes. */
export type Customers = 'all' | readonly string[];

export const FACT_MAX_DELIVERY_LAG = 'order_delivery_max_lag_days';
export const FACT_LEDGER_HORIZON = 'ledger_horizon_month';

/** Families of summary data, each derived from its own raw tables: a refresh names those its write can change. */
export type SummaryFamily = 'sales' | 'orders' | 'receipts' | 'ledger';

interface Family {
  /** The tables it writes, whose rows of the customers are deleted before it writes them anew, unless it deletes its own. */
  tables: readonly (keyof Database)[];
  deletesOwnRows?: true;
  write(db: Db, s: SummarySql, customers: Customers): Promise<void>;
  /** Sets what the rows written give in summary_facts, once its tables' indexes are built again (writeSummaries). */
  noteFacts?(db: Db, s: SummarySql, customers: Customers): Promise<void>;
}

const FAMILIES: Record<SummaryFamily, Family> = {
  sales: {
    tables: ['sales_period_totals', 'sales_period_categories', 'sales_period_category_sets'],
    write: insertSales,
  },
  orders: {
    tables: [
      'order_period_totals',
      'order_period_categories',
      'order_delivery_events',
      'open_order_balances',
      'open_order_deliveries',
    ],
    async write(db, s, customers) {
      await insertOrderDeliveries(db, s, customers);
      await insertOpenOrders(db, customers);
    },
    noteFacts: noteMaxDeliveryLag,
  },
  receipts: { tables: ['receipt_period_totals'], write: insertReceipts },
  // writeLedgerBalances deletes its own rows: a new horizon widens its scope to every customer.
  ledger: { tables: ['ledger_month_balances'], deletesOwnRows: true, write: writeLedgerBalances },
};

const ALL_FAMILIES = Object.keys(FAMILIES) as SummaryFamily[];

/** The tables rebuilt per customer, in the order they are written. */
export const CUSTOMER_SUMMARY_TABLES = ALL_FAMILIES.flatMap((family) => FAMILIES[family].tables);

export async function rebuildSummaries(db: Db): Promise<void> {
  await writeSummaries(db, 'all', ALL_FAMILIES);
}

/**
 * How a family's tables are written anew for every customer: `write` deletes and inserts their rows.
 * The import runs it with the tables' indexes set aside (src/import/foreign-keys.ts).
 */
export type RewriteTables = (db: Db, tables: readonly string[], write: () => Promise<void>) => Promise<void>;

const inPlace: RewriteTables = (_db, _tables, write) => write();

/** Refreshes these customers' summary rows; when they are most of the customers, all are rebuilt in one pass. */
export async function refreshSummaries(
  db: Db,
  customerCodes: Iterable<string> | 'all',
  families: readonly SummaryFamily[] = ALL_FAMILIES,
  rewrite: RewriteTables = inPlace,
): Promise<void> {
  if (customerCodes === 'all') return writeSummaries(db, 'all', families, rewrite);
  const codes = [...new Set(customerCodes)].sort();
  if (codes.length === 0) return;
  const stored = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (codes.length * 2 >= Number(stored.n)) return writeSummaries(db, 'all', families, rewrite);
  for (let i = 0; i < codes.length; i += SUMMARY_REFRESH_CUSTOMERS)
    await writeSummaries(db, codes.slice(i, i + SUMMARY_REFRESH_CUSTOMERS), families);
}

async function writeSummaries(
  db: Db,
  customers: Customers,
  families: readonly SummaryFamily[],
  rewrite: RewriteTables = inPlace,
): Promise<void> {
  const s = summarySql(db);
  for (const family of families) {
    const spec = FAMILIES[family];
    const writeFamily = async () => {
      if (!spec.deletesOwnRows) for (const table of spec.tables) await deleteRows(db, table, customers);
      await spec.write(db, s, customers);
    };
    // summary_facts last: a write of it holds a row of table_versions to the commit, which an
    // import's file noting a family as behind would wait for (src/import/summary-upkeep.ts).
    if (customers === 'all') {
      await rewrite(db, spec.tables, writeFamily);
      await spec.noteFacts?.(db, s, customers);
      await caughtUp(db, family);
    } else {
      await writeFamily();
      await spec.noteFacts?.(db, s, customers);
    }
  }
}

function customerFilter(customers: Customers, column: string): Expression<SqlBool> {
  return customers === 'all' ? sql<SqlBool>`1 = 1` : inValues(column, customers);
}

/** Deletes the customers' rows of a summary table (all of them without a condition: SQLite truncates). */
async function deleteRows(db: Db, table: keyof Database, customers: Customers): Promise<void> {
  if (customers === 'all') await db.deleteFrom(table).execute();
  else await db.deleteFrom(table).where(inValues('customer_code', customers)).execute();
}

/** The columns after period_start of the sales and order period tables. */
const PERIOD_KEYS = ['customer_code', 'profit_center_code', 'sales_officer_id'];

/** A period table's month rows summed from its day rows, then its year rows from the month rows. */
async function rollUpPeriods(
  db: Db,
  s: SummarySql,
  customers: Customers,
  table: keyof Database,
  keys: string[],
  measures: string[],
): Promise<void> {
  for (const kind of ['M', 'Y'] as const) {
    const periodStart = kind === 'M' ? s.monthStart(sql.ref('period_start')) : s.yearStart(sql.ref('period_start'));
    const key = sql.join([periodStart, ...keys.map((c) => sql.ref(c))]);
    await sql`
      insert into ${sql.table(table)} (period_kind, period_start, ${refs([...keys, ...measures])})
      select ${kind}, ${key}, ${sums(measures)} from ${sql.table(table)}
      where period_kind = ${kind === 'M' ? 'D' : 'M'} and ${customerFilter(customers, 'customer_code')} group by ${key}`.execute(
      db,
    );
  }
}

const refs = (columns: string[]) => sql.join(columns.map((c) => sql.ref(c)));
const sums = (columns: string[]) => sql.join(columns.map((c) => sql`sum(${sql.ref(c)})`));

// ---- sales -------------------------------------------------------------------------------------

async function insertSales(db: Db, s: SummarySql, customers: Customers): Promise<void> {
  const where = customerFilter(customers, 'i.customer_code');
  // Whole invoices; an invoice without lines still counts towards the amount (the dashboard) but not
  // as an invoice of the sales report, which counts invoices with a line.
  await sql`
    insert into sales_period_totals (period_kind, period_start, customer_code, profit_center_code, sales_officer_id, invoice_count, quantity, value, amount)
    select 'D', i.invoice_date, i.customer_code, i.profit_center_code, i.sales_officer_id,
           count(x.invoice_no), coalesce(sum(x.quantity), 0), coalesce(sum(x.value), 0), sum(i.amount)
    from invoices i
    left join (select invoice_no, sum(quantity) as quantity, sum(value) as value from invoice_lines group by invoice_no) x on x.invoice_no = i.invoice_no
    where ${where}
    group by i.invoice_date, i.customer_code, i.profit_center_code, i.sales_officer_id`.execute(db);
  await sql`
    insert into sales_period_categories (period_kind, period_start, customer_code, profit_center_code, sales_officer_id, category_code, quantity, value)
    select 'D', i.invoice_date, i.customer_code, i.profit_center_code, i.sales_officer_id, l.category_code, sum(l.quantity), sum(l.value)
    from invoices i join invoice_lines l on l.invoice_no = i.invoice_no
    where ${where}
    group by i.invoice_date, i.customer_code, i.profit_center_code, i.sales_officer_id, l.category_code`.execute(db);
  await sql`
    insert into sales_period_category_sets (period_kind, period_start, customer_code, profit_center_code, sales_officer_id, category_set, invoice_count)
    select 'D', i.invoice_date, i.customer_code, i.profit_center_code, i.sales_officer_id, x.category_set, count(*)
    from invoices i
    join (select invoice_no, ${s.sortedSet(sql.ref('category_code'))} as category_set from invoice_lines group by invoice_no) x on x.invoice_no = i.invoice_no
    where ${where}
    group by i.invoice_date, i.customer_code, i.profit_center_code, i.sales_officer_id, x.category_set`.execute(db);
  await sql`
    insert into sales_category_sets (category_set)
    select distinct category_set from sales_period_category_sets
    where period_kind = 'D' and ${customerFilter(customers, 'customer_code')}
      and category_set not in (select category_set from sales_category_sets)`.execute(db);
  await rollUpPeriods(db, s, customers, 'sales_period_totals', PERIOD_KEYS, [
    'invoice_count',
    'quantity',
    'value',
    'amount',
  ]);
  await rollUpPeriods(
    db,
    s,
    customers,
    'sales_period_categories',
    [...PERIOD_KEYS, 'category_code'],
    ['quantity', 'value'],
  );
  await rollUpPeriods(
    db,
    s,
    customers,
    'sales_period_category_sets',
    [...PERIOD_KEYS, 'category_set'],
    ['invoice_count'],
  );
}

// ---- orders and deliveries -----------------------------------------------------------------------

/** The smaller of two expressions (least() is PostgreSQL's, min(a, b) SQLite's). */
function least(a: RawBuilder<unknown>, b: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`case when ${a} < ${b} then ${a} else ${b} end`;
}

/**
 * Per line of an order not CANCELLED: ordered, delivered and capped = min(delivered, ordered); per
 * delivery date, how much capped grew, so a report ending on ToDate takes the later growth back out.
 */
async function insertOrderDeliveries(db: Db, s: SummarySql, customers: Customers): Promise<void> {
  const where = customerFilter(customers, 'o.customer_code');
  // Some customers' deliveries are summed for their orders alone; every customer's in one pass.
  const only = customers !== 'all';
  const dq = sql`coalesce(t.quantity, 0)`;
  const dv = sql`coalesce(t.value, 0)`;
  await sql`
    insert into order_period_categories (period_kind, period_start, customer_code, profit_center_code, sales_officer_id, category_code,
      ordered_quantity, ordered_value, delivered_quantity, delivered_value, capped_quantity, capped_value)
    select 'D', o.order_date, o.customer_code, o.profit_center_code, o.sales_officer_id, ol.category_code,
      sum(ol.quantity), sum(ol.value), sum(${dq}), sum(${dv}), sum(${least(dq, sql`ol.quantity`)}), sum(${least(dv, sql`ol.value`)})
    from orders o
    join order_lines ol on ol.order_no = o.order_no
    left join ${deliveredPerLine(only ? where : undefined)} t on t.order_no = ol.order_no and t.order_line_no = ol.line_no
    where o.status <> 'CANCELLED' and ${where}
    group by o.order_date, o.customer_code, o.profit_center_code, o.sales_officer_id, ol.category_code`.execute(db);
  // Per line and delivery date: delivered that day, and how much capped grew.
  await sql`
    insert into order_delivery_events (order_date, delivery_date, customer_code, profit_center_code, sales_officer_id, category_code,
      delivered_quantity, delivered_value, capped_quantity, capped_value)
    select order_date, delivery_date, customer_code, profit_center_code, sales_officer_id, category_code,
      sum(dq), sum(dv), sum(capped_quantity), sum(capped_value)
    from ${lineDeliverySteps(where, only)} e
    group by order_date, delivery_date, customer_code, profit_center_code, sales_officer_id, category_code`.execute(db);
  const measures = [
    'ordered_quantity',
    'ordered_value',
    'delivered_quantity',
    'delivered_value',
    'capped_quantity',
    'capped_value',
  ];
  await rollUpPeriods(db, s, customers, 'order_period_categories', [...PERIOD_KEYS, 'category_code'], measures);
  // The same without the category, for the reports that filter on none.
  const key = sql`period_kind, period_start, customer_code, profit_center_code, sales_officer_id`;
  await sql`
    insert into order_period_totals (${key}, ${refs(measures)})
    select ${key}, ${sums(measures)} from order_period_categories where ${customerFilter(customers, 'customer_code')} group by ${key}`.execute(
    db,
  );
}

/**
 * Everything ever delivered against each order line: (order_no, order_line_no, quantity, value); with
 * `only` (on orders o), against the lines of those orders alone.
 */
function deliveredPerLine(only?: Expression<SqlBool>): RawBuilder<unknown> {
  return sql`(select order_no, order_line_no, sum(quantity) as quantity, sum(value) as value from invoice_lines
    where order_no is not null ${ofOrders(sql.ref('order_no'), only)} group by order_no, order_line_no)`;
}

/**
 * A condition that an order number is one of the orders matching `only` (on orders o): the deliveries
 * of some orders (the open ones, some customers') are summed without summing every invoice line first.
 */
function ofOrders(orderNo: RawBuilder<unknown>, only: Expression<SqlBool> | undefined): RawBuilder<unknown> {
  return only === undefined ? sql`` : sql`and ${orderNo} in (select o.order_no from orders o where ${only})`;
}

/**
 * Per order line matching `where` (on orders o) and delivery date: dq, dv delivered that day, and how
 * much capped grew; with `only`, the deliveries summed for those orders' lines alone.
 */
function lineDeliverySteps(where: Expression<SqlBool>, only: boolean): RawBuilder<unknown> {
  return sql`(
    select order_date, delivery_date, order_no, customer_code, profit_center_code, sales_officer_id, category_code, dq, dv,
      ${least(sql`cq`, sql`oq`)} - ${least(sql`cq - dq`, sql`oq`)} as capped_quantity,
      ${least(sql`cv`, sql`ov`)} - ${least(sql`cv - dv`, sql`ov`)} as capped_value
    from (
      select o.order_date, d.delivery_date, o.order_no, o.customer_code, o.profit_center_code, o.sales_officer_id, ol.category_code,
        ol.quantity as oq, ol.value as ov, d.dq, d.dv,
        sum(d.dq) over (partition by d.order_no, d.order_line_no order by d.delivery_date rows unbounded preceding) as cq,
        sum(d.dv) over (partition by d.order_no, d.order_line_no order by d.delivery_date rows unbounded preceding) as cv
      from orders o
      join order_lines ol on ol.order_no = o.order_no
      join (
        select il.order_no, il.order_line_no, i.invoice_date as delivery_date, sum(il.quantity) as dq, sum(il.value) as dv
        from invoice_lines il join invoices i on i.invoice_no = il.invoice_no
        where il.order_no is not null ${ofOrders(sql.ref('il.order_no'), only ? where : undefined)}
        group by il.order_no, il.order_line_no, i.invoice_date
      ) d on d.order_no = ol.order_no and d.order_line_no = ol.line_no
      where o.status <> 'CANCELLED' and ${where}
    ) x
  )`;
}

/** OPEN orders: per order the ordered and capped totals, and per delivery date how capped grew. */
async function insertOpenOrders(db: Db, customers: Customers): Promise<void> {
  const where = sql<SqlBool>`o.status = 'OPEN' and ${customerFilter(customers, 'o.customer_code')}`;
  await sql`
    insert into open_order_balances (order_no, order_date, customer_code, ordered_quantity, ordered_value, capped_quantity, capped_value)
    select o.order_no, o.order_date, o.customer_code, sum(ol.quantity), sum(ol.value),
      coalesce(sum(${least(sql`coalesce(t.quantity, 0)`, sql`ol.quantity`)}), 0), coalesce(sum(${least(sql`coalesce(t.value, 0)`, sql`ol.value`)}), 0)
    from orders o
    join order_lines ol on ol.order_no = o.order_no
    left join ${deliveredPerLine(where)} t on t.order_no = ol.order_no and t.order_line_no = ol.line_no
    where ${where}
    group by o.order_no, o.order_date, o.customer_code`.execute(db);
  await sql`
    insert into open_order_deliveries (order_no, delivery_date, customer_code, capped_quantity, capped_value)
    select order_no, delivery_date, customer_code, sum(capped_quantity), sum(capped_value)
    from ${lineDeliverySteps(where, true)} e
    group by order_no, delivery_date, customer_code`.execute(db);
}

/**
 * The longest time from an order to a delivery against it, which bounds how far back a report looks.
 * A refresh only raises it (a longer lag is still correct); a rebuild sets it exactly.
 */
async function noteMaxDeliveryLag(db: Db, s: SummarySql, customers: Customers): Promise<void> {
  const row = await db
    .selectFrom('order_delivery_events')
    .where(customerFilter(customers, 'customer_code'))
    .select(sql<number | null>`max(${s.daysBetween(sql.ref('order_date'), sql.ref('delivery_date'))})`.as('lag'))
    .executeTakeFirst();
  const lag = Math.max(0, Number(row?.lag ?? 0));
  const known = customers === 'all' ? 0 : await maxDeliveryLag(db);
  await setFact(db, FACT_MAX_DELIVERY_LAG, String(Math.max(lag, known)));
}

export async function maxDeliveryLag(db: Db): Promise<number> {
  return Number((await fact(db, FACT_MAX_DELIVERY_LAG)) ?? 0);
}

// ---- receipts ------------------------------------------------------------------------------------

async function insertReceipts(db: Db, s: SummarySql, customers: Customers): Promise<void> {
  await sql`
    insert into receipt_period_totals (period_kind, period_start, customer_code, amount)
    select 'D', receipt_date, customer_code, sum(amount) from receipts
    where ${customerFilter(customers, 'customer_code')}
    group by receipt_date, customer_code`.execute(db);
  await rollUpPeriods(db, s, customers, 'receipt_period_totals', ['customer_code'], ['amount']);
}

// ---- ledger --------------------------------------------------------------------------------------

/**
 * Closing balances for every month from a customer's first entry to the horizon, the last month with
 * any entry; a new horizon gives every customer its months, so a month's lookup finds them all.
 */
async function writeLedgerBalances(db: Db, s: SummarySql, customers: Customers): Promise<void> {
  const last = await db
    .selectFrom('ledger_entries')
    .select(sql<string | null>`max(${s.monthStart(sql.ref('entry_date'))})`.as('month'))
    .executeTakeFirst();
  const horizon = last?.month ?? null;
  const known = await fact(db, FACT_LEDGER_HORIZON);
  const scope: Customers = horizon !== known ? 'all' : customers;
  await deleteRows(db, 'ledger_month_balances', scope);
  if (horizon === null) {
    await db.deleteFrom('summary_facts').where('name', '=', FACT_LEDGER_HORIZON).execute();
    return;
  }
  const first = await db
    .selectFrom('ledger_entries')
    .where(customerFilter(scope, 'customer_code'))
    .select(sql<string | null>`min(${s.monthStart(sql.ref('entry_date'))})`.as('month'))
    .executeTakeFirst();
  if (first?.month) {
    const months = monthsBetween(String(first.month), String(horizon));
    const calendar = sql.join(
      months.map((m) => sql`select ${s.date(m)} as month_start`),
      sql` union all `,
    );
    await sql`
      insert into ledger_month_balances (month_start, customer_code, closing_balance)
      with nets as (
        select customer_code, ${s.monthStart(sql.ref('entry_date'))} as month_start, sum(debit - credit) as net
        from ledger_entries where ${customerFilter(scope, 'customer_code')}
        group by customer_code, ${s.monthStart(sql.ref('entry_date'))}
      ),
      firsts as (select customer_code, min(month_start) as first_month from nets group by customer_code),
      calendar as (${calendar}),
      grid as (select f.customer_code, c.month_start from firsts f join calendar c on c.month_start >= f.first_month)
      select g.month_start, g.customer_code,
        sum(coalesce(n.net, 0)) over (partition by g.customer_code order by g.month_start rows unbounded preceding)
      from grid g left join nets n on n.customer_code = g.customer_code and n.month_start = g.month_start`.execute(db);
  }
  await setFact(db, FACT_LEDGER_HORIZON, String(horizon));
}

export async function ledgerHorizon(db: Db): Promise<string | undefined> {
  return fact(db, FACT_LEDGER_HORIZON);
}

/** The 'yyyy-MM-01' of each month from first's to last's. */
function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (
    const d = new Date(`${first.slice(0, 7)}-01T00:00:00Z`);
    d.toISOString().slice(0, 10) <= last;
    d.setUTCMonth(d.getUTCMonth() + 1)
  ) {
    months.push(d.toISOString().slice(0, 10));
  }
  return months;
}

// ---- families left behind ------------------------------------------------------------------------

/**
 * An import refreshes a family once, after the last of its files (src/import/summary-upkeep.ts); each
 * of its files notes in its own transaction that the family is behind its raw rows, so that an import
 * stopped before the refresh commits leaves a note, and the next one derives the family anew first.
 */
const BEHIND = 'behind:';

export async function noteBehind(db: Db, family: SummaryFamily): Promise<void> {
  await setFact(db, `${BEHIND}${family}`, 'import');
}

export async function caughtUp(db: Db, family: SummaryFamily): Promise<void> {
  await db.deleteFrom('summary_facts').where('name', '=', `${BEHIND}${family}`).execute();
}

/** Derives anew, for every customer, the families an import stopped before refreshing. */
export async function catchUpFamiliesBehind(db: Db): Promise<void> {
  const rows = await db.selectFrom('summary_facts').select('name').where('name', 'like', `${BEHIND}%`).execute();
  const behind = rows.map((r) => r.name.slice(BEHIND.length)).filter((name): name is SummaryFamily => name in FAMILIES);
  if (behind.length > 0) await writeSummaries(db, 'all', behind);
}

// ---- facts ---------------------------------------------------------------------------------------

async function fact(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('summary_facts').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

async function setFact(db: Db, name: string, value: string): Promise<void> {
  await db
    .insertInto('summary_facts')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}
