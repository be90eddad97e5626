/**
 * The operations and parameter lists of the two services, as the contract states them: read from the
 * WSDL files (wsdl/), the one hand-written statement of the contract, which the server compares with
 * its operation declarations at start (src/asmx/contract.ts). The tests check the served documents and
 * every binding against these lists; no list or count of operations is kept by hand anywhere else.
 */
import { CONTRACT_SERVICES, type ContractService } from '../../src/contract-check/interface';
import { mainServiceOperations } from '../../src/services/registry';

/** The operations of a service as [name, parameters], read by contract-check's own WSDL reading. */
function contractOperations(name: ContractService['name']): ReadonlyArray<readonly [string, readonly string[]]> {
  const service = CONTRACT_SERVICES.find((s) => s.name === name);
  if (!service) throw new Error(`no service ${name} in the contract`);
  return service.operations.map((op) => [op.name, op.params] as const);
}

export const MAIN_OPERATIONS = contractOperations('MobileAppWebService');

export const MAIN_OPERATION_NAMES = MAIN_OPERATIONS.map(([name]) => name);

/** docs/behaviour.md, "Conventions of every operation": with no input at all they do nothing and succeed. */
export const WRITE_OPERATIONS = mainServiceOperations.filter((op) => op.kind === 'write').map((op) => op.name);

export const SYNC_OPERATIONS = contractOperations('SyncCustomers');

export const MAIN_PATH = '/API/MobileAppWebService.asmx';
export const SYNC_PATH = '/API/SyncCustomers.asmx';
