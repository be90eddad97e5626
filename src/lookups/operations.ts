/** Operations of this business area (docs/behaviour.md): lookups that fill the app's pick lists. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { notFound } from '../errors';
import { readOperation, type Operation } from '../operations/types';
import { code, user } from '../operations/parse';
import { storedCustomerCode } from '../operations/master-codes';
import { findUser, idsBelow, type User } from '../users/hierarchy';
import { allowedOfficers, assertVisible, type OfficerBound } from '../users/principal-scope';
import { field, nullable, recordType, rows } from '../operations/results';

const AREA_MANAGERS_RESULT = rows(
  recordType('AreaManager', {
    Id: field.string,
    Username: field.string,
    Name: field.string,
    ZoneCode: nullable(field.string),
  }),
);
const PROFIT_CENTERS_RESULT = rows(recordType('ProfitCenter', { Code: field.string, Name: field.string }));

export const fillAreaManagers = readOperation({
  name: 'FillAreaManagers',
  params: ['username'],
  fields: [],
  returns: AREA_MANAGERS_RESULT,
  async prepare({ fields }, ctx) {
    // With an authenticated user, no username is that user (principal-scope.ts).
    const username = user(fields, 'username') ?? ctx.principal?.username;
    return areaManagerViewer(ctx.db, username, await allowedOfficers(ctx));
  },
  read: async (viewer, ctx) => ({ data: await areaManagersOf(ctx.db, viewer) }),
});

export const fillProfitCenterForCustomer = readOperation({
  name: 'FillProfitCenterForCustomer',
  params: [],
  fields: ['CustomerCode'],
  returns: PROFIT_CENTERS_RESULT,
  prepare: async ({ fields }, ctx) => ({
    customerCode: code(fields, 'CustomerCode'),
    allowed: await allowedOfficers(ctx),
  }),
  read: async ({ customerCode, allowed }, ctx) => ({ data: await profitCentersFor(ctx.db, customerCode, allowed) }),
});

export const lookupsOperations: readonly Operation[] = [fillAreaManagers, fillProfitCenterForCustomer];

/** FillAreaManagers: whose list is asked for; undefined for no username; NOT_FOUND for an unknown one, or one outside the bound. */
async function areaManagerViewer(
  db: Kysely<Database>,
  username: string | undefined,
  allowed?: OfficerBound,
): Promise<User | undefined> {
  if (username === undefined) return undefined;
  const user = await findUser(db, username);
  const unknown = () => notFound('username', `username: '${username}' is not a known user`);
  if (!user) throw unknown();
  assertVisible(allowed, user.id, unknown);
  return user;
}

/** The area managers the (checked) viewer may pick from; every one for no viewer. */
async function areaManagersOf(db: Kysely<Database>, user: User | undefined) {
  if (user === undefined) return activeAreaManagers(db);
  switch (user.role) {
    case 'ADMIN':
      return activeAreaManagers(db);
    case 'ZM':
      return activeAreaManagers(db, await idsBelow(db, user.id));
    case 'AM':
      return activeAreaManagers(db, [user.id]);
    case 'SO':
      // An officer reporting straight to someone who is not an area manager has none to offer.
      return user.manager_id === null ? [] : activeAreaManagers(db, [user.manager_id]);
  }
}

/** Active area managers, all of them or those with the given ids; by name, then id. */
async function activeAreaManagers(db: Kysely<Database>, ids?: readonly string[]) {
  if (ids !== undefined && ids.length === 0) return [];
  let query = db
    .selectFrom('users')
    .select(['id as Id', 'username as Username', 'name as Name', 'zone_code as ZoneCode'])
    .where('role', '=', 'AM')
    .where('active', '=', 1);
  if (ids !== undefined) query = query.where('id', 'in', ids);
  return query.orderBy('name').orderBy('id').execute();
}

/**
 * FillProfitCenterForCustomer: a customer's profit centers (none for an unknown one or one outside
 * the caller's scope), or every one, master data visible to all.
 */
async function profitCentersFor(db: Kysely<Database>, customerCode: string | undefined, allowed?: OfficerBound) {
  if (customerCode === undefined)
    return db.selectFrom('profit_centers').select(['code as Code', 'name as Name']).orderBy('code').execute();
  const code = await storedCustomerCode(db, customerCode);
  if (code === undefined) return [];
  return db
    .selectFrom('customer_profit_centers')
    .innerJoin('profit_centers', 'profit_centers.code', 'customer_profit_centers.profit_center_code')
    .select(['profit_centers.code as Code', 'profit_centers.name as Name'])
    .where('customer_profit_centers.customer_code', '=', code)
    .$if(allowed !== undefined, (qb) =>
      qb.where('customer_profit_centers.customer_code', 'in', (eb) =>
        eb.selectFrom('customers').select('code').where('sales_officer_id', 'in', allowed!),
      ),
    )
    .orderBy('profit_centers.code')
    .execute();
}
