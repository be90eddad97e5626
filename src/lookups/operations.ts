/** Operations of this business area (domain.md). */
import type { Operation } from '../operations/types';

export const fillAreaManagers: Operation = {
  name: 'FillAreaManagers',
  params: ['username'],
  fields: [],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('FillAreaManagers is being built');
  },
};

export const fillProfitCenterForCustomer: Operation = {
  name: 'FillProfitCenterForCustomer',
  params: [],
  fields: ['CustomerCode'],
  acceptsFiles: false,
  kind: 'read',
  async run() {
    throw new Error('FillProfitCenterForCustomer is being built');
  },
};

export const lookupsOperations: readonly Operation[] = [fillAreaManagers, fillProfitCenterForCustomer];
