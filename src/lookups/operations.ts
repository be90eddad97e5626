/** Operations of this business area (domain.md): lookups that fill the app's pick lists. */
import type { Operation } from '../operations/types';
import { text } from '../operations/parse';
import { areaManagersVisibleTo } from './area-managers';
import { profitCentersFor } from './profit-centers';

export const fillAreaManagers: Operation = {
  name: 'FillAreaManagers',
  params: ['username'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, { db }) {
    return { data: await areaManagersVisibleTo(db, text(fields, 'username')) };
  },
};

export const fillProfitCenterForCustomer: Operation = {
  name: 'FillProfitCenterForCustomer',
  params: [],
  fields: ['CustomerCode'],
  acceptsFiles: false,
  kind: 'read',
  async run({ fields }, { db }) {
    return { data: await profitCentersFor(db, text(fields, 'CustomerCode')) };
  },
};

export const lookupsOperations: readonly Operation[] = [fillAreaManagers, fillProfitCenterForCustomer];
