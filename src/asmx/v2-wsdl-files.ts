/**
 * The v2 WSDL files as npm run v2-wsdl writes them, for the script and the tests that check or copy
 * them. Kept out of contract-v2.ts, which the contract checker loads, as it loads the registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Operation } from '../operations/types';
import { serviceShapes } from '../services/mobile-app';
import { serviceLocation } from '../services/types';
import { v2Wsdl } from './contract-v2';

/**
 * Each v2 WSDL file under `root` and its text, from the legacy WSDL of the same service and the
 * declarations of `operations` (the registry's by default). The namespaces are left blank: the files
 * hold {{namespace}}, which the server fills in.
 */
export function v2WsdlFiles(root: string, operations?: readonly Operation[]): { file: string; text: string }[] {
  return serviceShapes({ apiNamespace: '', syncNamespace: '', apiV2Namespace: '', syncV2Namespace: '' }, operations)
    .filter((service) => service.contract === 'v2')
    .map((service) => ({
      file: serviceLocation(service.name, 'v2').wsdlFile,
      text: v2Wsdl(fs.readFileSync(path.join(root, serviceLocation(service.name, 'legacy').wsdlFile), 'utf8'), service),
    }));
}
