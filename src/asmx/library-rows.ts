/**
 * The rows of the v2 contract's typed answers (docs/v2.md), serialised by the npm soap library's own
 * serialiser (the one that writes every legacy SOAP response) from the service's v2 WSDL. The rows are
 * the bulk of a large answer, and the library writes a row far more cheaply than xmlbuilder2's
 * callback builder, which writes the frame around them (typed-xml.ts).
 *
 * The values are handed over as the XML Schema lexical forms the declaration gives them (typed-xml.ts
 * `lexical`), and strings through cdataProof: the library copies a string that looks like a CDATA
 * section unescaped (docs/contract.md, the soap library's traps).
 */
import type { RecordType } from '../operations/results';
import type { Service } from '../services/types';
import { loadServiceDescription } from './contract';
import { childrenXml, readWsdl, type LibraryWsdl } from './soap/soap-library';
import { replaceNonXmlChars } from './xml-escape';

/** The XML of rows of one record type: `<Row>…</Row><Row>…</Row>`, in the service's namespace. */
export type RowsXml = (type: RecordType, rows: readonly Readonly<Record<string, unknown>>[]) => string;

const loaded = new WeakMap<Pick<Service, 'wsdlFile' | 'namespace'>, Promise<LibraryWsdl>>();

/** The rows writer of a service, its WSDL read by the library once per service object. */
export async function rowsWriter(service: Pick<Service, 'wsdlFile' | 'namespace'>, lexical: (type: RecordType, row: Readonly<Record<string, unknown>>) => Record<string, unknown>): Promise<RowsXml> {
  let wsdl = loaded.get(service);
  if (!wsdl) loaded.set(service, (wsdl = readWsdl(loadServiceDescription(service).wsdlTemplate)));
  const library = await wsdl;
  return (type, rows) => childrenXml(library, { [type.name]: rows.map((row) => lexical(type, row)) }, service.namespace);
}

/**
 * The npm soap library copies a string that starts with "<![CDATA[" and ends with "]]>" into the
 * document unescaped (docs/contract.md, "What the npm soap library does not do by itself"). Such a string
 * is handed over as a real CDATA section holding exactly its text, with every "]]>" inside split across
 * two sections, so nothing in it can close the section or open markup. Any other string is escaped by
 * the library itself.
 */
export function cdataProof(value: string): string {
  const clean = replaceNonXmlChars(value);
  if (!(clean.startsWith('<![CDATA[') && clean.endsWith(']]>'))) return clean;
  return `<![CDATA[${clean.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
