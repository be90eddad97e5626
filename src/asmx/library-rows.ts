/**
 * The rows of the v2 contract's typed answers, serialised by the npm soap library from the v2 WSDL:
 * far more cheaply than xmlbuilder2, which writes the frame around them (typed-xml.ts).
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
 * The soap library copies a string that looks like a CDATA section unescaped (docs/contract.md): such
 * a string is handed over as a real CDATA section holding exactly its text, every "]]>" split.
 */
export function cdataProof(value: string): string {
  const clean = replaceNonXmlChars(value);
  if (!(clean.startsWith('<![CDATA[') && clean.endsWith(']]>'))) return clean;
  return `<![CDATA[${clean.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
