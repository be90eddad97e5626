/**
 * Master data files (docs/architecture.md, "The data"): zones, states, profit centers, product categories,
 * products, users, customers and the profit centers each customer buys under.
 */
import { AMOUNT, CODE, FLAG, LENGTH, NAME, enumOf, optional, ref, required, type TableSpec } from '../table-spec';

const codeAndName = (table: TableSpec['table']): TableSpec => ({
  table,
  key: ['code'],
  columns: [required('code', CODE), required('name', NAME)],
  references: [],
});

export const zones = codeAndName('zones');
export const profitCenters = codeAndName('profit_centers');
export const productCategories = codeAndName('product_categories');

export const states: TableSpec = {
  table: 'states',
  key: ['code'],
  columns: [required('code', CODE), required('name', NAME), required('zone_code', CODE)],
  references: [ref('zone_code', 'zones', 'code')],
};

export const products: TableSpec = {
  table: 'products',
  key: ['code'],
  columns: [
    required('code', CODE),
    required('name', NAME),
    required('category_code', CODE),
    required('unit_price', AMOUNT),
  ],
  references: [ref('category_code', 'product_categories', 'code')],
};

/**
 * Usernames are stored lower-case (schema.ts). A manager must be stored before the users below it;
 * the loader resolves that within the file, whatever the order of the rows.
 */
export const users: TableSpec = {
  table: 'users',
  key: ['id'],
  columns: [
    required('id', CODE),
    required('username', { kind: 'text', max: LENGTH.short, lowerCase: true }),
    required('name', NAME),
    required('role', enumOf(['ADMIN', 'ZM', 'AM', 'SO'])),
    optional('manager_id', CODE),
    optional('zone_code', CODE),
    optional('active', FLAG, 1),
  ],
  references: [ref('manager_id', 'users', 'id'), ref('zone_code', 'zones', 'code')],
  unique: [{ column: 'username' }],
  check: (row) =>
    row.manager_id !== null && row.manager_id === row.id
      ? { column: 'manager_id', reason: `a user cannot be its own manager` }
      : undefined,
};

export const customers: TableSpec = {
  table: 'customers',
  key: ['code'],
  columns: [
    required('code', CODE),
    required('name', NAME),
    required('state_code', CODE),
    required('sales_officer_id', CODE),
    optional('credit_limit', AMOUNT, 0),
    optional('active', FLAG, 1),
  ],
  references: [ref('state_code', 'states', 'code'), ref('sales_officer_id', 'users', 'id')],
};

export const customerProfitCenters: TableSpec = {
  table: 'customer_profit_centers',
  key: ['customer_code', 'profit_center_code'],
  columns: [required('customer_code', CODE), required('profit_center_code', CODE)],
  references: [ref('customer_code', 'customers', 'code'), ref('profit_center_code', 'profit_centers', 'code')],
};
