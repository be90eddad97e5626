/**
 * Text that reaches a SOAP response can never become markup (docs/contract.md: the npm soap library
 * passes a string shaped like "<![CDATA[...]]>" through unescaped). The string result of an operation
 * goes through the library's own escaping, and fault texts through ours; both are read back here with
 * an XML parser and must give back exactly the original text.
 */
import { SaxesParser } from 'saxes';
import { xmlEscape } from 'soap/lib/utils';
import { faultDocument } from '../../src/asmx/faults';
import { escapeXmlText } from '../../src/asmx/xml-escape';
import { cdataProof } from '../../src/asmx/typed-xml';

/** The text content of the single element of a small document, as a client's parser reads it. */
function textOf(xml: string): { text: string; elements: number } {
  const parser = new SaxesParser();
  let text = '';
  let elements = 0;
  parser.on('text', (t) => (text += t));
  parser.on('cdata', (t) => (text += t));
  parser.on('opentag', () => (elements += 1));
  parser.write(xml).close();
  return { text, elements };
}

const HOSTILE = [
  '<![CDATA[</HelloWorldResult><injected/>]]>',
  '<![CDATA[a]]>b<c/>]]>',
  '<![CDATA[]]>',
  '<![CDATA[ ]]]]><![CDATA[> ]]>',
  'plain & <b>bold</b> "quoted" \'single\'',
  'control \u0001 char',
  'Hello World',
];

test.each(HOSTILE)('a string result %j is text, exactly, after the library escapes it', (value) => {
  const element = `<HelloWorldResult>${xmlEscape(cdataProof(value))}</HelloWorldResult>`;
  const read = textOf(element);
  expect(read.elements).toBe(1);
  expect(read.text).toBe(value.replace('\u0001', '\uFFFD'));
});

test('an ordinary string is left to the library, so HelloWorld keeps the legacy bytes', () => {
  expect(xmlEscape(cdataProof('Hello World'))).toBe('Hello World');
});

test.each(HOSTILE)('a fault text %j is text, exactly', (value) => {
  const read = textOf(`<faultstring>${escapeXmlText(value)}</faultstring>`);
  expect(read.elements).toBe(1);
  expect(read.text).toBe(value.replace('\u0001', '\uFFFD'));
});

test.each(['1.1', '1.2'] as const)('a SOAP %s fault document is well-formed whatever its text', (version) => {
  for (const value of HOSTILE) {
    const document = faultDocument(version, { kind: 'client', message: value });
    expect(() => textOf(document)).not.toThrow();
    expect(textOf(document).text).toContain(value.replace('\u0001', '\uFFFD'));
  }
});
