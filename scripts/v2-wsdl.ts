/**
 * npm run v2-wsdl
 *
 * Writes the typed v2 WSDL files (wsdl/v2/) from the legacy WSDL files and the operations'
 * declarations; test/v2/v2-wsdl.test.ts fails while a committed file differs from what this writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { v2WsdlFiles } from '../src/asmx/contract-v2';
import { serviceShapes } from '../src/services/mobile-app';

// Run by npm from the project's folder; the namespaces stay {{namespace}} in the files.
const root = process.cwd();
const shapes = serviceShapes({ apiNamespace: '', syncNamespace: '', apiV2Namespace: '', syncV2Namespace: '' });
for (const { file, text } of v2WsdlFiles(root, shapes)) {
  const target = path.join(root, file);
  const unchanged = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text;
  if (!unchanged) fs.writeFileSync(target, text);
  process.stdout.write(`${file}: ${unchanged ? 'unchanged' : 'written'}\n`);
}
