/**
 * Master data shared by the operation tests: a small company whose every row is written out here, so a
 * test can work out its expected answer by hand from these rows plus the transactions it adds itself.
 *
 *   ADM001 (ADMIN)
 *   ├── ZM01 (ZM, zone N) ── AM01 (AM, N) ── SO01, SO02
 *   └── ZM02 (ZM, zone S) ── AM02 (AM, S) ── SO03
 *   SO04 (SO, N) reports to AM01 and owns no customer.
 *
 *   customers: C001 DL/SO01, C002 PB/SO01, C003 DL/SO02, C004 KA/SO03, C005 TN/SO03
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema';

export const ZONES = [
  { code: 'N', name: 'North' },
  { code: 'S', name: 'South' },
];

export const STATES = [
  { code: 'DL', name: 'Delhi', zone_code: 'N' },
  { code: 'PB', name: 'Punjab', zone_code: 'N' },
  { code: 'KA', name: 'Karnataka', zone_code: 'S' },
  { code: 'TN', name: 'Tamil Nadu', zone_code: 'S' },
];

export const PROFIT_CENTERS = [
  { code: 'PC1', name: 'Pumps Division' },
  { code: 'PC2', name: 'Motors Division' },
  { code: 'PC3', name: 'Spares Division' },
];

export const CATEGORIES = [
  { code: 'CAT01', name: 'Pumps' },
  { code: 'CAT02', name: 'Motors' },
  { code: 'CAT03', name: 'Valves' },
];

export const PRODUCTS = [
  { code: 'P001', name: 'Pump 1HP', category_code: 'CAT01', unit_price: 150000 },
  { code: 'P002', name: 'Pump 2HP', category_code: 'CAT01', unit_price: 250000 },
  { code: 'P003', name: 'Motor 3kW', category_code: 'CAT02', unit_price: 99900 },
  { code: 'P004', name: 'Gate Valve', category_code: 'CAT03', unit_price: 12345 },
];

export const USERS = [
  { id: 'ADM001', username: 'admin', name: 'Asha Admin', role: 'ADMIN', manager_id: null, zone_code: null, active: 1 },
  {
    id: 'ZM01',
    username: 'zm.north',
    name: 'Zubin North',
    role: 'ZM',
    manager_id: 'ADM001',
    zone_code: 'N',
    active: 1,
  },
  { id: 'ZM02', username: 'zm.south', name: 'Zara South', role: 'ZM', manager_id: 'ADM001', zone_code: 'S', active: 1 },
  { id: 'AM01', username: 'am.north', name: 'Arun North', role: 'AM', manager_id: 'ZM01', zone_code: 'N', active: 1 },
  { id: 'AM02', username: 'am.south', name: 'Anita South', role: 'AM', manager_id: 'ZM02', zone_code: 'S', active: 1 },
  { id: 'SO01', username: 'so.one', name: 'Sunil One', role: 'SO', manager_id: 'AM01', zone_code: 'N', active: 1 },
  { id: 'SO02', username: 'so.two', name: 'Sita Two', role: 'SO', manager_id: 'AM01', zone_code: 'N', active: 1 },
  { id: 'SO03', username: 'so.three', name: 'Sam Three', role: 'SO', manager_id: 'AM02', zone_code: 'S', active: 1 },
  { id: 'SO04', username: 'so.four', name: 'Sara Four', role: 'SO', manager_id: 'AM01', zone_code: 'N', active: 1 },
] as const;

export const CUSTOMERS = [
  {
    code: 'C001',
    name: 'Agarwal Traders',
    state_code: 'DL',
    sales_officer_id: 'SO01',
    credit_limit: 50000000,
    active: 1,
  },
  { code: 'C002', name: 'Bhatia Pumps', state_code: 'PB', sales_officer_id: 'SO01', credit_limit: 20000000, active: 1 },
  {
    code: 'C003',
    name: 'Chawla & Sons',
    state_code: 'DL',
    sales_officer_id: 'SO02',
    credit_limit: 10000000,
    active: 1,
  },
  {
    code: 'C004',
    name: 'Deshpande Agencies',
    state_code: 'KA',
    sales_officer_id: 'SO03',
    credit_limit: 30000000,
    active: 1,
  },
  { code: 'C005', name: 'Easwaran Stores', state_code: 'TN', sales_officer_id: 'SO03', credit_limit: 0, active: 0 },
];

export const CUSTOMER_PROFIT_CENTERS = [
  { customer_code: 'C001', profit_center_code: 'PC1' },
  { customer_code: 'C001', profit_center_code: 'PC2' },
  { customer_code: 'C002', profit_center_code: 'PC1' },
  { customer_code: 'C003', profit_center_code: 'PC3' },
  { customer_code: 'C004', profit_center_code: 'PC2' },
];

/** Inserts the master data above into an empty migrated database. */
export async function insertMasterData(db: Kysely<Database>): Promise<void> {
  await db.insertInto('zones').values(ZONES).execute();
  await db.insertInto('states').values(STATES).execute();
  await db.insertInto('profit_centers').values(PROFIT_CENTERS).execute();
  await db.insertInto('product_categories').values(CATEGORIES).execute();
  await db.insertInto('products').values(PRODUCTS).execute();
  // Managers before their reports (foreign key on manager_id).
  for (const user of USERS)
    await db
      .insertInto('users')
      .values({ ...user })
      .execute();
  await db.insertInto('customers').values(CUSTOMERS).execute();
  await db.insertInto('customer_profit_centers').values(CUSTOMER_PROFIT_CENTERS).execute();
}

/** What CreateWarrantyRequest needs for the fixture's customer C001 (typed in lower case) owned by officer SO01. */
export function warrantyFields(clientRequestId: string): Record<string, string> {
  return {
    CustomerCode: 'c001',
    SalesOfficer: 'SO01',
    ProductCode: 'P002',
    SerialNo: `SN-${clientRequestId}`,
    Complaint: 'Motor hums but does not start',
    PurchaseDate: '15/01/2026',
    ClientRequestId: clientRequestId,
  };
}

/** The warranty requests stored under a ClientRequestId. */
export function storedWarrantyRequests(db: Kysely<Database>, clientRequestId: string) {
  return db
    .selectFrom('warranty_requests')
    .selectAll()
    .where('client_request_id', '=', clientRequestId)
    .orderBy('request_no')
    .execute();
}
