/**
 * The npm soap library's serialiser writes every successful response's Body content, in the envelope
 * ASMX writes (faults.ts). A request never goes through the library's server: the guard has parsed it
 * once already, and the library would parse it again and answer in two writes.
 */
import type { Service } from '../../services/types';
import { envelopeStart, type SoapVersion } from '../faults';
import { outputElements, outputXml, readWsdl } from './soap-library';

/** The response document of a successful call; an operation the WSDL does not have throws. */
export type ResponseDocument = (version: SoapVersion, operation: string, result: Record<string, string>) => string;

export async function startSoapEngine(service: Service, wsdlXml: string): Promise<ResponseDocument> {
  const wsdl = await readWsdl(wsdlXml, { useEmptyTag: true });
  const outputs = outputElements(wsdl, service.name);
  // The same result always has the same document: the empty result of every report operation, and
  // HelloWorld's constant text. Such short results are serialised once per version and operation.
  const documents = new Map<string, string>();
  return (version, operation, result) => {
    const output = outputs.get(operation);
    if (!output) throw new Error(`The WSDL of ${service.name} has no operation ${operation}`);
    // A result too long to keep has no key.
    const text = JSON.stringify(result);
    const key = text.length > MAX_KEPT_RESULT_CHARS ? undefined : `${version} ${operation} ${text}`;
    let document = key === undefined ? undefined : documents.get(key);
    if (document === undefined) {
      document = `${envelopeStart(version)}<soap:Body>${outputXml(wsdl, output, result)}</soap:Body></soap:Envelope>`;
      if (key !== undefined && documents.size < MAX_KEPT_DOCUMENTS) documents.set(key, document);
    }
    return document;
  };
}

/** Documents kept per service: every operation's empty answer in both versions, and a few short results. */
const MAX_KEPT_DOCUMENTS = 256;
const MAX_KEPT_RESULT_CHARS = 256;
