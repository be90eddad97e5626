/**
 * The operations and parameter lists of the two services, as the contract states them: read from the
 * WSDL files (wsdl/), the one hand-written statement of the contract, which the server compares with
 * its operation declarations at start (src/asmx/contract.ts). The tests check the served documents and
 * every binding against these lists; no list or count of operations is kept by hand anywhere else.
 */
import { loadServiceDescription } from '../../src/asmx/contract';
import { mainServiceOperations } from '../../src/services/registry';
import { MOBILE_APP_SERVICE_NAME } from '../../src/services/mobile-app';
import { SYNC_CUSTOMERS_SERVICE_NAME } from '../../src/services/sync-customers';

function contractOperations(serviceName: string): ReadonlyArray<readonly [string, readonly string[]]> {
  const description = loadServiceDescription({ wsdlFile: `wsdl/${serviceName}.wsdl`, namespace: 'http://tempuri.org/' });
  return description.operations.map((op) => [op.name, op.params] as const);
}

export const MAIN_OPERATIONS = contractOperations(MOBILE_APP_SERVICE_NAME);

export const MAIN_OPERATION_NAMES = MAIN_OPERATIONS.map(([name]) => name);

/** docs/behaviour.md, "Conventions of every operation": with no input at all they do nothing and succeed. */
export const WRITE_OPERATIONS = mainServiceOperations.filter((op) => op.kind === 'write').map((op) => op.name);

export const SYNC_OPERATIONS = contractOperations(SYNC_CUSTOMERS_SERVICE_NAME);

export const MAIN_PATH = '/API/MobileAppWebService.asmx';
export const SYNC_PATH = '/API/SyncCustomers.asmx';
