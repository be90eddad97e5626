/** Operations of this business area (docs/behaviour.md): lookups that fill the app's pick lists. */
import { readOperation, type Operation } from '../operations/types';
import { text } from '../operations/parse';
import { areaManagersOf, areaManagerViewer } from './area-managers';
import { profitCentersFor } from './profit-centers';
import { allowedOfficers } from '../users/principal-scope';

export const fillAreaManagers = readOperation({
  name: 'FillAreaManagers',
  params: ['username'],
  fields: [],
  acceptsFiles: false,
  async prepare({ fields }, ctx) {
    // With an authenticated user, no username is that user (principal-scope.ts).
    const username = text(fields, 'username') ?? ctx.principal?.username;
    return areaManagerViewer(ctx.db, username, await allowedOfficers(ctx));
  },
  read: async (viewer, ctx) => ({ data: await areaManagersOf(ctx.db, viewer) }),
});

export const fillProfitCenterForCustomer = readOperation({
  name: 'FillProfitCenterForCustomer',
  params: [],
  fields: ['CustomerCode'],
  acceptsFiles: false,
  prepare: async ({ fields }, ctx) => ({ customerCode: text(fields, 'CustomerCode'), allowed: await allowedOfficers(ctx) }),
  read: async ({ customerCode, allowed }, ctx) => ({ data: await profitCentersFor(ctx.db, customerCode, allowed) }),
});

export const lookupsOperations: readonly Operation[] = [fillAreaManagers, fillProfitCenterForCustomer];
