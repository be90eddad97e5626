/**
 * Adding an operation (docs/architecture.md): the v2 WSDL entry follows from the declaration. When the
 * v2 WSDL lacks an operation or a record type, the start-up check's difference names it and the command
 * that writes the file again; what that command writes (v2Wsdl) for the new declarations agrees with them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contractDifferences, describeWsdl } from '../../src/asmx/contract';
import { REGENERATE, v2Wsdl } from '../../src/asmx/contract-v2';
import { createMobileAppService } from '../../src/services/mobile-app';
import { mainServiceOperations } from '../../src/services/registry';
import { field, nullable, recordType, rows } from '../../src/operations/results';
import type { Operation, OperationContext } from '../../src/operations/types';

const V2_NS = 'http://tempuri.org/v2/';
const V2_WSDL = fs.readFileSync(path.join(__dirname, '../../wsdl/v2/MobileAppWebService.wsdl'), 'utf8');
const LEGACY_WSDL = fs.readFileSync(path.join(__dirname, '../../wsdl/MobileAppWebService.wsdl'), 'utf8');

function v2Service(operations: readonly Operation[]) {
  // Never invoked: the check reads the declarations only.
  return createMobileAppService({ namespace: V2_NS, contract: 'v2', operations, context: {} as OperationContext });
}

function differences(wsdl: string, operations: readonly Operation[]): string[] {
  return contractDifferences(describeWsdl(wsdl, V2_NS), v2Service(operations));
}

it('names the command for an operation the v2 WSDL lacks, and what the command writes agrees', () => {
  const invoices = mainServiceOperations.find((op) => op.name === 'getPCNInvoices')!;
  if (invoices.returns.kind !== 'rows') throw new Error('getPCNInvoices answers rows');
  const added: Operation = {
    ...invoices,
    name: 'getPCNReturns',
    params: ['PCNNO', 'Reason'],
    returns: rows(
      recordType('PCNReturn', {
        ReturnNo: field.string,
        ReturnDate: nullable(field.date),
        Invoice: { record: invoices.returns.row },
      }),
      { pageable: true },
    ),
  };
  const operations = [...mainServiceOperations, added];
  expect(differences(V2_WSDL, operations)).toEqual([
    `operation getPCNReturns is implemented but not in the WSDL${REGENERATE}`,
  ]);
  const written = v2Wsdl(LEGACY_WSDL, v2Service(operations));
  expect(written).toContain(
    '<s:complexType name="PCNReturn">\n        <s:sequence>\n          <s:element minOccurs="1" maxOccurs="1" name="ReturnNo" type="s:string" />',
  );
  // A type the operations share is declared once.
  expect(written.split('<s:complexType name="PCNInvoice">')).toHaveLength(2);
  expect(differences(written, operations)).toEqual([]);
});

it('names the command for a record type the v2 WSDL lacks', () => {
  const block = /\n( {6}<s:complexType name="PCNDebitNote">\n[\s\S]*?\n {6}<\/s:complexType>)\n/.exec(V2_WSDL)![1];
  expect(differences(V2_WSDL.replace(`${block}\n`, ''), mainServiceOperations)).toEqual([
    `the schema has no complexType PCNDebitNote${REGENERATE}`,
  ]);
});
