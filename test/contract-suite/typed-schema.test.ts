/**
 * The checker's reading of the v2 WSDL's types (src/contract-check/typed-schema.ts), with which
 * `contract-check --v2` holds every typed answer to the served WSDL: what it accepts, and each kind of
 * difference it names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WsdlTypes } from '../../src/contract-check/typed-schema';
import { parseXmlDocument } from '../../src/contract-check/xml';

const NS = 'urn:v2';
const wsdl = fs
  .readFileSync(path.join(__dirname, '../../wsdl/v2/MobileAppWebService.wsdl'), 'utf8')
  .split('{{namespace}}')
  .join(NS)
  .split('{{address}}')
  .join('http://x/');
const types = new WsdlTypes(parseXmlDocument(wsdl));

const invoice =
  '<PCNInvoice><InvoiceNo>INV1</InvoiceNo><InvoiceDate>2026-05-01</InvoiceDate><InvoiceAmount>10.5</InvoiceAmount><AdjustedAmount>10.5</AdjustedAmount></PCNInvoice>';
const answer = (data: string, count = '1') =>
  parseXmlDocument(
    `<GetPCNInvoicesResult xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Message></Message><Count>${count}</Count><Data>${data}</Data></GetPCNInvoicesResult>`,
  );

describe('the v2 WSDL types as contract-check reads them', () => {
  it('accepts an answer of the declared shape, empty lists and several rows included', () => {
    expect(types.elementProblems(answer(invoice), 'GetPCNInvoicesResult')).toEqual([]);
    expect(types.elementProblems(answer('', '0'), 'GetPCNInvoicesResult')).toEqual([]);
    expect(types.elementProblems(answer(invoice + invoice, '2'), 'GetPCNInvoicesResult')).toEqual([]);
  });

  it.each([
    [
      'a value not of its type',
      answer(invoice.replace('10.5</InvoiceAmount>', '1e3</InvoiceAmount>')),
      "GetPCNInvoicesResult/Data/PCNInvoice[0]/InvoiceAmount: '1e3' is not an xs:decimal",
    ],
    [
      'a date in another form',
      answer(invoice.replace('2026-05-01', '01/05/2026')),
      "GetPCNInvoicesResult/Data/PCNInvoice[0]/InvoiceDate: '01/05/2026' is not an xs:date",
    ],
    [
      'a missing field',
      answer(invoice.replace('<InvoiceNo>INV1</InvoiceNo>', '')),
      'GetPCNInvoicesResult/Data/PCNInvoice[0]: InvoiceNo is missing',
    ],
    [
      'an element out of place',
      answer(invoice.replace('</PCNInvoice>', '<Extra>1</Extra></PCNInvoice>')),
      'GetPCNInvoicesResult/Data/PCNInvoice[0]: unexpected element Extra',
    ],
    [
      'nil where not nillable',
      answer(invoice.replace('<InvoiceNo>INV1</InvoiceNo>', '<InvoiceNo xsi:nil="true"/>')),
      'GetPCNInvoicesResult/Data/PCNInvoice[0]/InvoiceNo: xsi:nil where the WSDL does not declare it nillable',
    ],
    ['a count that is not an int', answer(invoice, 'one'), "GetPCNInvoicesResult/Count: 'one' is not an xs:int"],
  ])('names %s', (_what, document, problem) => {
    expect(types.elementProblems(document, 'GetPCNInvoicesResult')).toEqual([problem]);
  });

  it('names another root element, and an element the WSDL does not declare', () => {
    expect(types.elementProblems(answer(invoice), 'GetPCNListResult')).toEqual([
      `expected the element {${NS}}GetPCNListResult, got {${NS}}GetPCNInvoicesResult`,
    ]);
    expect(types.elementProblems(answer(invoice), 'NoSuchElement')).toEqual([
      'the WSDL declares no element NoSuchElement',
    ]);
  });
});
