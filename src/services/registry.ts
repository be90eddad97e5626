/**
 * Every operation of the main service, by name. The WSDL (wsdl/MobileAppWebService.wsdl) is the
 * source of truth for names and parameter order; at start the server compares the two and refuses
 * to run on any difference (src/asmx/contract.ts).
 */
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
