/**
 * The SyncCustomers service object: one operation, HelloWorld, answering "Hello World" on every
 * binding (wsdl/SyncCustomers.wsdl; docs/contract.md).
 */
import { TEXT_RESULT } from '../operations/results';
import type { InvokeInput, Outcome, Service, ServiceOperation } from './types';

export const SYNC_CUSTOMERS_SERVICE_NAME = 'SyncCustomers';

const helloWorld: ServiceOperation = { name: 'HelloWorld', params: [], fields: [], acceptsFiles: false, returns: TEXT_RESULT, write: false };

export function createSyncCustomersService(options: { namespace: string }): Service {
  return {
    name: SYNC_CUSTOMERS_SERVICE_NAME,
    namespace: options.namespace,
    path: `/API/${SYNC_CUSTOMERS_SERVICE_NAME}.asmx`,
    wsdlFile: `wsdl/${SYNC_CUSTOMERS_SERVICE_NAME}.wsdl`,
    operations: new Map([[helloWorld.name, helloWorld]]),
    invoke(name: string, _input: InvokeInput): Promise<Outcome> {
      if (name !== helloWorld.name) return Promise.reject(new Error(`${name} is not an operation of ${SYNC_CUSTOMERS_SERVICE_NAME}`));
      return Promise.resolve({ kind: 'string', value: 'Hello World' });
    },
  };
}
