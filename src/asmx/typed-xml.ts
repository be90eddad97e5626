/**
 * The v2 contract's typed XML (docs/v2.md), for the SOAP response and the HTTP root element: the frame
 * with xmlbuilder2, the rows with the soap library's serialiser, which writes them far more cheaply.
 */
import { createCB } from 'xmlbuilder2';
import type { XMLBuilderCB } from 'xmlbuilder2/lib/interfaces';
import type { ServerResponse } from 'node:http';
import {
  field,
  isScalar,
  nullable,
  recordType,
  type FieldType,
  type RecordType,
  type ResultType,
  type ScalarKind,
} from '../operations/results';
import { StreamedData, type StreamedJson } from '../operations/streamed';
import type { OperationResult } from '../operations/types';
import { ChunkWriter, type StreamEnd } from './chunk-writer';
import type { SpoolStore } from './answer-spool';
import { loadServiceDescription } from './contract';
import { childrenXml, readWsdl, type LibraryWsdl } from './soap/soap-library';
import type { Service } from '../services/types';
import { replaceNonXmlChars } from './xml-escape';
import { XSI_NS } from '../classifier/envelope-reader';
import { TYPED_XML_FLUSH_ROWS } from '../tunables';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** The XML Schema type of each kind of value (docs/v2.md), as the v2 WSDL declares it. */
export const XSD_TYPE: Readonly<Record<ScalarKind, string>> = {
  string: 'string',
  integer: 'int',
  money: 'decimal',
  decimal: 'decimal',
  date: 'date',
  dateTime: 'dateTime',
  boolean: 'boolean',
};

/** The prefixes ASMX declares on a document's root: a null field anywhere below is xsi:nil. */
export function declareSchemaPrefixes(xml: XMLBuilderCB): void {
  xml.att('xmlns:xsi', XSI_NS).att('xmlns:xsd', XSD_NS);
}

/** The complex type (and HTTP root element) of an operation's v2 result: getPCNList -> GetPCNListResult. */
export function v2ResultTypeName(operation: string): string {
  return `${operation[0].toUpperCase()}${operation.slice(1)}Result`;
}

/** xmlbuilder2's callback builder whose text goes to a chunk writer, with the rows writer beside it. */
class XmlStream {
  readonly xml: XMLBuilderCB;
  private parts: string[] = [];

  constructor(
    private readonly out: ChunkWriter,
    private readonly rowsXml: RowsXml,
  ) {
    this.xml = createCB({ data: (text: string) => void this.parts.push(text), prettyPrint: false });
  }

  /** Rows of `type` inside the element the builder has open. */
  rows(type: RecordType, rows: readonly Readonly<Record<string, unknown>>[]): void {
    // An empty text makes the builder write the open element's start tag out before the rows.
    this.xml.txt('');
    this.parts.push(this.rowsXml(type, rows));
  }

  get aborted(): boolean {
    return this.out.aborted;
  }

  /** Hands the text built so far to the chunk writer, which waits for the client when it must. */
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    await this.out.write(text);
  }
}

/** Writes `result` as the element `name` inside the builder's current element, and closes any StreamedData it holds. */
export async function writeTypedResult(
  stream: XmlStream,
  ns: string,
  name: string,
  returns: ResultType,
  result: OperationResult,
  root = false,
): Promise<void> {
  const { xml } = stream;
  xml.ele(ns, name);
  if (root) declareSchemaPrefixes(xml);
  if (returns.kind === 'text') {
    xml.txt(replaceNonXmlChars(typeof result.data === 'string' ? result.data : '')).up();
    return;
  }
  scalar(xml, ns, 'Message', 'string', result.message ?? '');
  const { data } = result;
  if (data instanceof StreamedData) {
    try {
      if (data.count !== undefined) scalar(xml, ns, 'Count', 'integer', await data.count());
      await writeStreamed(stream, ns, 'Data', dataType(returns), data, data.body);
      if (data.totals && returns.kind === 'rows' && returns.totals)
        record(stream, ns, 'Totals', returns.totals, data.totals());
    } finally {
      await data.close();
    }
  } else if (data !== null && data !== undefined) {
    if (Array.isArray(data)) scalar(xml, ns, 'Count', 'integer', data.length);
    await writeValue(stream, ns, 'Data', dataType(returns), data);
    if (result.totals && returns.kind === 'rows' && returns.totals)
      record(stream, ns, 'Totals', returns.totals, result.totals);
  }
  if (result.nextPageToken !== undefined) nullableText(xml, ns, 'NextPageToken', result.nextPageToken);
  xml.up();
}

function dataType(returns: ResultType): FieldType {
  if (returns.kind === 'rows') return { list: returns.row };
  if (returns.kind === 'record') return { record: returns.type };
  throw new Error('a text result has no Data');
}

async function writeValue(stream: XmlStream, ns: string, name: string, type: FieldType, value: unknown): Promise<void> {
  if (!('list' in type)) return member(stream, ns, name, type, value);
  stream.xml.ele(ns, name);
  await writeRows(stream, type.list, value as readonly Record<string, unknown>[]);
  stream.xml.up();
}

/** Rows handed to the chunk writer TYPED_XML_FLUSH_ROWS at a time, so a large answer waits for the client. */
async function writeRows(stream: XmlStream, type: RecordType, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length && !stream.aborted; i += TYPED_XML_FLUSH_ROWS) {
    stream.rows(type, rows.slice(i, i + TYPED_XML_FLUSH_ROWS));
    await stream.flush();
  }
}

/** A streamed Data: its parts in the order the declaration has them, rows as the cursor gives them. */
async function writeStreamed(
  stream: XmlStream,
  ns: string,
  name: string,
  type: FieldType,
  data: StreamedData,
  part: StreamedJson,
): Promise<void> {
  if (part.kind === 'value') return writeValue(stream, ns, name, type, part.value());
  if (part.kind === 'rows') {
    if (!('list' in type)) throw new Error(`${name}: rows where the declaration has no list`);
    stream.xml.ele(ns, name);
    for await (const batch of data.read(part.rows)) {
      if (stream.aborted) break;
      await writeRows(stream, type.list, batch as readonly Record<string, unknown>[]);
    }
    stream.xml.up();
    return;
  }
  if (!('record' in type)) throw new Error(`${name}: an object where the declaration has no record`);
  const members = new Map(part.members);
  stream.xml.ele(ns, name);
  for (const [fieldName, fieldType] of Object.entries(type.record.fields)) {
    const fieldPart = members.get(fieldName);
    if (fieldPart === undefined) throw new Error(`${name}.${fieldName}: declared, not in the streamed answer`);
    await writeStreamed(stream, ns, fieldName, fieldType, data, fieldPart);
  }
  stream.xml.up();
}

function record(
  stream: XmlStream,
  ns: string,
  name: string,
  type: RecordType,
  value: Readonly<Record<string, unknown>>,
): void {
  stream.xml.ele(ns, name);
  for (const [fieldName, fieldType] of Object.entries(type.fields))
    member(stream, ns, fieldName, fieldType, value[fieldName]);
  stream.xml.up();
}

/** A row as the soap library takes it: the declared fields in order, lexical forms, null kept (xsi:nil), strings CDATA-proof. */
function lexicalRow(type: RecordType, row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const lexical: Record<string, unknown> = {};
  for (const [name, fieldType] of Object.entries(type.fields)) {
    const value = row[name];
    if (value === null || value === undefined) lexical[name] = null;
    else if (!isScalar(fieldType))
      lexical[name] =
        'list' in fieldType
          ? {
              [fieldType.list.name]: (value as Record<string, unknown>[]).map((item) =>
                lexicalRow(fieldType.list, item),
              ),
            }
          : lexicalRow(fieldType.record, value as Record<string, unknown>);
    else lexical[name] = fieldType.kind === 'string' ? cdataProof(value as string) : scalarText(fieldType.kind, value);
  }
  return lexical;
}

function member(stream: XmlStream, ns: string, name: string, type: FieldType, value: unknown): void {
  const { xml } = stream;
  if (isScalar(type)) {
    if (value === null || value === undefined) nil(xml, ns, name);
    else scalar(xml, ns, name, type.kind, value);
  } else if ('list' in type) {
    xml.ele(ns, name);
    stream.rows(type.list, value as readonly Record<string, unknown>[]);
    xml.up();
  } else {
    record(stream, ns, name, type.record, value as Record<string, unknown>);
  }
}

function scalar(xml: XMLBuilderCB, ns: string, name: string, kind: ScalarKind, value: unknown): void {
  xml.ele(ns, name).txt(scalarText(kind, value)).up();
}

function nullableText(xml: XMLBuilderCB, ns: string, name: string, value: string | null): void {
  if (value === null) nil(xml, ns, name);
  else scalar(xml, ns, name, 'string', value);
}

function nil(xml: XMLBuilderCB, ns: string, name: string): void {
  xml.ele(ns, name).att(XSI_NS, 'xsi:nil', 'true').up();
}

/** A value in its XML Schema lexical form (xs:string, xs:int, xs:decimal, xs:date, xs:dateTime, xs:boolean). */
function scalarText(kind: ScalarKind, value: unknown): string {
  switch (kind) {
    case 'string':
      return replaceNonXmlChars(String(value));
    case 'money':
    case 'decimal':
      return decimalText(value as number);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return String(value);
  }
}

/** xs:decimal has no exponent: JavaScript writes one below 1e-6 and from 1e21. */
function decimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  if (Math.abs(value) >= 1e21) return BigInt(Math.round(value)).toString();
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** The type of the v2 contract's business failure: the SOAP fault's detail, the HTTP failure's root. */
export const SERVICE_ERROR_TYPE = recordType('ServiceError', {
  Code: field.string,
  Field: nullable(field.string),
  Message: field.string,
});

/** `<ServiceError xmlns="ns">` with the failure's Code, Field and Message, as one XML fragment. */
export function serviceErrorXml(ns: string, failure: { code: string; field?: string; message: string }): string {
  const parts: string[] = [];
  const xml = createCB({ data: (text: string) => void parts.push(text), prettyPrint: false });
  const value: Record<string, string | null> = {
    Code: failure.code,
    Field: failure.field ?? null,
    Message: failure.message,
  };
  xml.ele(ns, SERVICE_ERROR_TYPE.name);
  declareSchemaPrefixes(xml);
  for (const name of Object.keys(SERVICE_ERROR_TYPE.fields)) nullableText(xml, ns, name, value[name]);
  xml.up().end();
  return parts.join('');
}

interface TypedAnswer {
  /** The service whose v2 WSDL the rows are written by (rowsWriter). */
  service: Pick<Service, 'wsdlFile' | 'wsdlRoot' | 'namespace'>;
  status: number;
  contentType: string;
  cacheControl?: string;
  /** Writes the document's root element (the XML declaration is written before it). */
  root: (stream: XmlStream) => Promise<void>;
}

/** Sends a typed XML document while it is built; a failure after the first byte cuts the connection. */
export async function sendTypedAnswer(res: ServerResponse, spool: SpoolStore, answer: TypedAnswer): Promise<StreamEnd> {
  const out = new ChunkWriter(res, spool);
  res.statusCode = answer.status;
  res.setHeader('Content-Type', answer.contentType);
  if (answer.cacheControl !== undefined) res.setHeader('Cache-Control', answer.cacheControl);
  const stream = new XmlStream(out, await rowsWriter(answer.service, lexicalRow));
  try {
    stream.xml.dec({ version: '1.0', encoding: 'utf-8' });
    await answer.root(stream);
    stream.xml.end();
    await stream.flush();
  } catch (error) {
    if (!res.headersSent) throw error;
    res.destroy();
    throw error;
  }
  return out.end();
}

/** The XML of rows of one record type: `<Row>…</Row><Row>…</Row>`, in the service's namespace. */
export type RowsXml = (type: RecordType, rows: readonly Readonly<Record<string, unknown>>[]) => string;

const loaded = new WeakMap<Pick<Service, 'wsdlFile' | 'wsdlRoot' | 'namespace'>, Promise<LibraryWsdl>>();

/** The rows writer of a service, its WSDL read by the library once per service object. */
export async function rowsWriter(
  service: Pick<Service, 'wsdlFile' | 'wsdlRoot' | 'namespace'>,
  lexical: (type: RecordType, row: Readonly<Record<string, unknown>>) => Record<string, unknown>,
): Promise<RowsXml> {
  let wsdl = loaded.get(service);
  if (!wsdl) loaded.set(service, (wsdl = readWsdl(loadServiceDescription(service).wsdlTemplate)));
  const library = await wsdl;
  return (type, rows) =>
    childrenXml(library, { [type.name]: rows.map((row) => lexical(type, row)) }, service.namespace);
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
