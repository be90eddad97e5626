/** The SyncCustomers service object: HelloWorld, answering "Hello World" on every binding. */
import { TEXT_RESULT } from '../operations/results';
import { serviceLocation, type ContractVersion, type InvokeInput, type Outcome, type Service, type ServiceOperation } from './types';

export const SYNC_CUSTOMERS_SERVICE_NAME = 'SyncCustomers';

const helloWorld: ServiceOperation = { name: 'HelloWorld', params: [], fields: [], acceptsFiles: false, returns: TEXT_RESULT, write: false };

export function createSyncCustomersService(options: { namespace: string; contract?: ContractVersion }): Service {
  return {
    name: SYNC_CUSTOMERS_SERVICE_NAME,
    namespace: options.namespace,
    contract: options.contract ?? 'legacy',
    operations: new Map([[helloWorld.name, helloWorld]]),
    invoke(name: string, _input: InvokeInput): Promise<Outcome> {
      if (name !== helloWorld.name) return Promise.reject(new Error(`${name} is not an operation of ${SYNC_CUSTOMERS_SERVICE_NAME}`));
      return Promise.resolve({ kind: 'string', value: 'Hello World' });
    },
    ...serviceLocation(SYNC_CUSTOMERS_SERVICE_NAME, options.contract ?? 'legacy'),
  };
}
