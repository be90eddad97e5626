/**
 * The v2 WSDL files follow from the legacy WSDL files and the declarations (npm run v2-wsdl writes
 * them): the committed files are what the command writes, byte for byte, and a declaration added to
 * the registry comes out in a generated WSDL that the start-up check accepts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contractDifferences, describeWsdl } from '../../src/asmx/contract';
import { v2Wsdl, v2WsdlFiles } from '../../src/asmx/contract-v2';
import { field, nullable, recordType, rows } from '../../src/operations/results';
import type { Operation, OperationContext } from '../../src/operations/types';
import { createMobileAppService, serviceShapes } from '../../src/services/mobile-app';
import { mainServiceOperations } from '../../src/services/registry';

const root = path.join(__dirname, '..', '..');
const V2_NS = 'http://tempuri.org/v2/';

it.each(
  v2WsdlFiles(root, serviceShapes({ apiNamespace: '', syncNamespace: '', apiV2Namespace: '', syncV2Namespace: '' })),
)('$file is what npm run v2-wsdl writes', ({ file, text }) => {
  const committed = fs.readFileSync(path.join(root, file), 'utf8');
  if (committed !== text)
    throw new Error(
      `${file} differs from what the legacy WSDL and the declarations give: run npm run v2-wsdl and commit the file`,
    );
});

it('writes an operation added to the declarations so that the start-up check accepts it', () => {
  const invoices = mainServiceOperations.find((op) => op.name === 'getPCNInvoices')!;
  const added: Operation = {
    ...invoices,
    name: 'getPCNReturns',
    params: ['PCNNO', 'Reason'],
    returns: rows(recordType('PCNReturn', { ReturnNo: field.string, ReturnDate: nullable(field.date) }), {
      pageable: true,
    }),
  };
  const service = createMobileAppService({
    namespace: V2_NS,
    contract: 'v2',
    operations: [...mainServiceOperations, added],
    context: {} as OperationContext,
  });
  const generated = v2Wsdl(fs.readFileSync(path.join(root, 'wsdl/MobileAppWebService.wsdl'), 'utf8'), service);
  expect(generated).toContain('<s:complexType name="PCNReturn">');
  expect(contractDifferences(describeWsdl(generated, V2_NS), service)).toEqual([]);
});
