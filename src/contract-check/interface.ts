/**
 * The two services and their operations as the contract states them: read from the WSDL files
 * (wsdl/), the one hand-written statement of the contract. The checker knows the contract without
 * asking the server under test (it may be the legacy ASMX server) and without reading this
 * project's operation declarations.
 */
import { loadServiceDescription } from '../asmx/contract';
import type { ServiceTarget } from './types';

export interface ContractOperation {
  name: string;
  /** Contract parameters in WSDL order. */
  params: readonly string[];
  /** HelloWorld returns a string; every main-service operation is void in the WSDL. */
  returnsString: boolean;
}

export interface ContractService {
  name: ServiceTarget['name'];
  operations: readonly ContractOperation[];
}

function contractService(name: ServiceTarget['name'], folder = ''): ContractService {
  const description = loadServiceDescription({
    wsdlFile: `wsdl/${folder}${name}.wsdl`,
    namespace: 'http://tempuri.org/',
  });
  return {
    name,
    operations: description.operations.map((op) => ({
      name: op.name,
      params: op.params,
      returnsString: op.result !== undefined,
    })),
  };
}

export const MAIN_SERVICE: ContractService = contractService('MobileAppWebService');

const SYNC_SERVICE: ContractService = contractService('SyncCustomers');

export const CONTRACT_SERVICES: readonly ContractService[] = [MAIN_SERVICE, SYNC_SERVICE];

/** The HelloWorld answer of every binding (docs/contract.md). */
export const HELLO_WORLD = 'Hello World';

/** The typed v2 contract's services (wsdl/v2/, docs/v2.md), for `contract-check --v2`. */
export const V2_SERVICES: readonly ContractService[] = [
  contractService('MobileAppWebService', 'v2/'),
  contractService('SyncCustomers', 'v2/'),
];
