/** Every operation of the main service; at start the server checks them against the WSDL (src/asmx/contract.ts). */
import type { Operation } from '../operations/types';
import { salesOperations } from '../sales/operations';
import { collectionsOperations } from '../collections/operations';
import { pcnOperations } from '../pcn/operations';
import { lookupsOperations } from '../lookups/operations';
import { warrantyOperations } from '../warranty/operations';
import { activitiesOperations } from '../activities/operations';

export const mainServiceOperations: readonly Operation[] = [
  ...salesOperations,
  ...collectionsOperations,
  ...pcnOperations,
  ...lookupsOperations,
  ...warrantyOperations,
  ...activitiesOperations,
];
