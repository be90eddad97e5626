/** Operations of this business area (domain.md): lookups that fill the app's pick lists. */
import type { Operation } from '../operations/types';
import { text } from '../operations/parse';
import { areaManagersVisibleTo } from './area-managers';
import { profitCentersFor } from './profit-centers';
import { allowedOfficers } from '../users/principal-scope';

export const fillAreaManagers: Operation = {
  name: 'FillAreaManagers',
  params: ['username'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    // With an authenticated user, no username is that user (principal-scope.ts).
    const username = text(fields, 'username') ?? ctx.principal?.username;
    return { data: await areaManagersVisibleTo(ctx.db, username, await allowedOfficers(ctx)) };
  },
};

export const fillProfitCenterForCustomer: Operation = {
  name: 'FillProfitCenterForCustomer',
  params: [],
  fields: ['CustomerCode'],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, ctx) {
    return { data: await profitCentersFor(ctx.db, text(fields, 'CustomerCode'), await allowedOfficers(ctx)) };
  },
};

export const lookupsOperations: readonly Operation[] = [fillAreaManagers, fillProfitCenterForCustomer];
