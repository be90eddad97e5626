/** Operations of this business area (docs/behaviour.md): lookups that fill the app's pick lists. */
import { readOperation, type Operation } from '../operations/types';
import { code, user } from '../operations/parse';
import { areaManagersOf, areaManagerViewer } from './area-managers';
import { profitCentersFor } from './profit-centers';
import { allowedOfficers } from '../users/principal-scope';
import { field, nullable, recordType, rows } from '../operations/results';

const AREA_MANAGERS_RESULT = rows(recordType('AreaManager', { Id: field.string, Username: field.string, Name: field.string, ZoneCode: nullable(field.string) }));
const PROFIT_CENTERS_RESULT = rows(recordType('ProfitCenter', { Code: field.string, Name: field.string }));

export const fillAreaManagers = readOperation({
  name: 'FillAreaManagers',
  reads: ['users'],
  params: ['username'],
  fields: [],
  acceptsFiles: false,
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
  reads: ['profit_centers', 'customer_profit_centers', 'customers'],
  params: [],
  fields: ['CustomerCode'],
  acceptsFiles: false,
  returns: PROFIT_CENTERS_RESULT,
  prepare: async ({ fields }, ctx) => ({ customerCode: code(fields, 'CustomerCode'), allowed: await allowedOfficers(ctx) }),
  read: async ({ customerCode, allowed }, ctx) => ({ data: await profitCentersFor(ctx.db, customerCode, allowed) }),
});

export const lookupsOperations: readonly Operation[] = [fillAreaManagers, fillProfitCenterForCustomer];
