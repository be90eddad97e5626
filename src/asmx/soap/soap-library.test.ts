/**
 * What soap-library.ts relies on in the npm soap library, on the project's own WSDL files: the
 * operations' output elements it finds, and the exact XML its serialiser writes for known input. A
 * failure here after an upgrade of `soap` means the legacy bytes would change on the wire.
 */
import { version as soapVersion } from 'soap/package.json';
import { mainServiceOperations } from '../../services/registry';
import { loadServiceDescription } from '../contract';
import { childrenXml, outputElements, outputXml, readWsdl } from './soap-library';

const TEMPURI = 'http://tempuri.org/';

const wsdlOf = (wsdlFile: string, namespace: string, options: { useEmptyTag?: boolean } = {}) =>
  readWsdl(loadServiceDescription({ wsdlFile, namespace }).wsdlTemplate, options);

/** Fails with a message naming the library version and what soap-library.ts relies on. */
function expectRelied(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) === JSON.stringify(expected)) return;
  throw new Error(
    `soap ${soapVersion} no longer does what src/asmx/soap/soap-library.ts relies on: ${what}.\n` +
      `expected: ${JSON.stringify(expected)}\nactual:   ${JSON.stringify(actual)}`,
  );
}

describe('the npm soap library, as soap-library.ts uses it', () => {
  it("finds each operation's output element in the document/literal bindings", async () => {
    const wsdl = await wsdlOf('wsdl/MobileAppWebService.wsdl', TEMPURI, { useEmptyTag: true });
    const outputs = outputElements(wsdl, 'MobileAppWebService');
    const declared = mainServiceOperations.map((op) => op.name).sort();
    expectRelied('every operation of MobileAppWebService has an output element', [...outputs.keys()].sort(), declared);
    expectRelied('the output element of getPCNList', outputs.get('getPCNList'), {
      name: 'getPCNListResponse',
      alias: 'tns',
      namespace: TEMPURI,
    });
    expect(() => outputElements(wsdl, 'NoSuchService')).toThrow('The WSDL has no service named NoSuchService');
  });

  it('writes an empty result as an empty tag with its namespace (useEmptyTag)', async () => {
    const wsdl = await wsdlOf('wsdl/MobileAppWebService.wsdl', TEMPURI, { useEmptyTag: true });
    const output = outputElements(wsdl, 'MobileAppWebService').get('getPCNList')!;
    expectRelied(
      'objectToDocumentXML of an empty result',
      outputXml(wsdl, output, {}),
      `<getPCNListResponse xmlns="${TEMPURI}" />`,
    );
  });

  it('writes a text result escaped, in the namespace the WSDL is filled with', async () => {
    const wsdl = await wsdlOf('wsdl/SyncCustomers.wsdl', 'urn:x', { useEmptyTag: true });
    const output = outputElements(wsdl, 'SyncCustomers').get('HelloWorld')!;
    expectRelied(
      'objectToDocumentXML of a text result',
      outputXml(wsdl, output, { HelloWorldResult: 'a < & > "q" \'s\' é' }),
      '<HelloWorldResponse xmlns="urn:x"><HelloWorldResult>a &lt; &amp; &gt; &quot;q&quot; &apos;s&apos; é</HelloWorldResult></HelloWorldResponse>',
    );
  });

  it('writes rows without a namespace declaration, null as xsi:nil, and a CDATA-looking string as it is', async () => {
    const wsdl = await wsdlOf('wsdl/v2/MobileAppWebService.wsdl', TEMPURI);
    const rows = [
      { CustomerCode: 'C<1>', CustomerName: 'A & B', StateCode: null, ZoneCode: '', Value: '1.50' },
      { CustomerCode: '<![CDATA[x]]]]><![CDATA[>y]]>' },
    ];
    expectRelied(
      'objectToXML of rows (cdataProof in typed-xml.ts relies on the CDATA section passing through)',
      childrenXml(wsdl, { SalesSummaryRecord: rows }, TEMPURI),
      '<SalesSummaryRecord><CustomerCode>C&lt;1&gt;</CustomerCode><CustomerName>A &amp; B</CustomerName><StateCode xsi:nil="true"></StateCode><ZoneCode></ZoneCode><Value>1.50</Value></SalesSummaryRecord>' +
        '<SalesSummaryRecord><CustomerCode><![CDATA[x]]]]><![CDATA[>y]]></CustomerCode></SalesSummaryRecord>',
    );
  });
});
