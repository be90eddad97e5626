/**
 * npm run v2-wsdl
 *
 * Writes the typed v2 WSDL files (wsdl/v2/) from the legacy WSDL files and the operations'
 * declarations; test/v2/v2-wsdl.test.ts fails while a committed file differs from what this writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { v2WsdlFiles } from '../src/asmx/v2-wsdl-files';

// Run by npm from the project's folder.
const root = process.cwd();
for (const { file, text } of v2WsdlFiles(root)) {
  const target = path.join(root, file);
  const unchanged = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text;
  if (!unchanged) fs.writeFileSync(target, text);
  process.stdout.write(`${file}: ${unchanged ? 'unchanged' : 'written'}\n`);
}
