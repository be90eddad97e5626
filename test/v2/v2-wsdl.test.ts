/**
 * The v2 WSDL files follow from the legacy WSDL files and the declarations (npm run v2-wsdl writes
 * them): the committed files are what the command writes, byte for byte. A declaration added to the
 * registry: test/v2/v2-entry.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { v2WsdlFiles } from '../../src/asmx/v2-wsdl-files';

const root = path.join(__dirname, '..', '..');

it.each(v2WsdlFiles(root))('$file is what npm run v2-wsdl writes', ({ file, text }) => {
  const committed = fs.readFileSync(path.join(root, file), 'utf8');
  if (committed !== text)
    throw new Error(
      `${file} differs from what the legacy WSDL and the declarations give: run npm run v2-wsdl and commit the file`,
    );
});
