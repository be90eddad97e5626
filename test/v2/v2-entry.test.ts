/**
 * Adding an operation (docs/architecture.md): the v2 WSDL entry follows from the declaration. When the
 * v2 WSDL lacks an operation, the start-up check's difference holds every piece to paste and where;
 * pasted as it says, the WSDL agrees with the declarations. A record type it lacks comes back byte
 * for byte as the file wrote it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contractDifferences, describeWsdl } from '../../src/asmx/contract';
import { createMobileAppService } from '../../src/services/mobile-app';
import { mainServiceOperations } from '../../src/services/registry';
import { field, nullable, recordType, rows } from '../../src/operations/results';
import type { Operation } from '../../src/operations/types';
import type { Engine } from '../../src/db/engine';
import { suiteEngine } from '../support/engines';

const V2_NS = 'http://tempuri.org/v2/';
const v2Wsdl = fs.readFileSync(path.join(__dirname, '../../wsdl/v2/MobileAppWebService.wsdl'), 'utf8');

let engine: Engine;
suiteEngine('sqlite', (opened) => (engine = opened));

function differences(wsdl: string, operations: readonly Operation[]): string[] {
  const settings = {
    dateOrder: 'DMY' as const,
    fiscalYearStartMonth: 4,
    maxFileBytes: 1,
    maxFilesPerRequest: 1,
    maxRequestFilesBytes: 1,
  };
  const service = createMobileAppService({
    namespace: V2_NS,
    contract: 'v2',
    operations,
    context: { db: engine.db, engine, clock: { now: () => new Date() }, settings },
  });
  return contractDifferences(describeWsdl(wsdl, V2_NS), service);
}

it('says what to paste for an operation the v2 WSDL lacks, and the WSDL with the paste agrees', () => {
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
  const found = differences(v2Wsdl, operations);
  expect(found).toHaveLength(1);
  const [said, ...pieces] = found[0].split(/\n {2}after (.*), before the next (.*):\n/);
  expect(said).toBe(
    'operation getPCNReturns is implemented but not in the WSDL; add to wsdl/v2/MobileAppWebService.wsdl:',
  );
  // The schema, the messages, three port types and four bindings; a type the schema has is not repeated.
  expect(pieces).toHaveLength(9 * 3);
  expect(pieces[2]).toContain(
    '<s:complexType name="PCNReturn">\n        <s:sequence>\n          <s:element minOccurs="1" maxOccurs="1" name="ReturnNo" type="s:string" />',
  );
  expect(pieces[2]).not.toContain('<s:complexType name="PCNInvoice">');
  let pasted = v2Wsdl;
  for (let i = 0; i < pieces.length; i += 3) {
    const [after, before, xml] = pieces.slice(i, i + 3);
    const at = pasted.lastIndexOf('\n', pasted.indexOf(before, pasted.indexOf(after))) + 1;
    pasted = `${pasted.slice(0, at)}${xml}\n${pasted.slice(at)}`;
  }
  expect(differences(pasted, operations)).toEqual([]);
});

it('says what to paste for a record type the v2 WSDL lacks: the type as the file had it', () => {
  const block = /\n( {6}<s:complexType name="PCNDebitNote">\n[\s\S]*?\n {6}<\/s:complexType>)\n/.exec(v2Wsdl)![1];
  expect(differences(v2Wsdl.replace(`${block}\n`, ''), mainServiceOperations)).toEqual([
    `the schema has no complexType PCNDebitNote; add to wsdl/v2/MobileAppWebService.wsdl:\n  after <s:schema, before the next </s:schema>:\n${block}`,
  ]);
});
