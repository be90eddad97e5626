/**
 * The npm soap library behind both SOAP bindings of one service: soap.listen reads the service's WSDL,
 * once per SOAP version (docs/contract.md: one instance answers SOAP 1.2 with a SOAP 1.1 envelope), and
 * the library's serialiser writes every successful response: the operation's output element, as the
 * WSDL's document/literal binding declares it, inside the version's envelope.
 *
 * A request never goes through the library's request listener. The guard in front (guard.ts) has
 * already parsed it once, checked it and picked its operation, and the library's listener would only
 * parse it a second time, look the method up again and write the answer in two socket writes. The
 * binding runs the operation itself and asks the library for the response document of its result
 * (`responseDocument`), which is the legacy bytes: useEmptyTag writes `<opResponse xmlns="ns" />`, and
 * the envelope carries exactly xmlns:xsi and xmlns:xsd. Failures are answered with the project's own
 * fault documents (faults.ts), which the library cannot write in the legacy shape.
 */
import { inspect } from 'node:util';
import { Router } from 'express';
import * as soap from 'soap';
import type { Service } from '../../services/types';
import { XSI_XSD, type SoapVersion } from '../faults';

export interface SoapEngine {
  /**
   * The response document of a successful call: the library's serialisation of `result` as the
   * operation's output element. An operation the WSDL does not have throws.
   */
  responseDocument(version: SoapVersion, operation: string, result: Record<string, string>): string;
}

export async function startSoapEngine(service: Service, wsdlXml: string): Promise<SoapEngine> {
  const [soap11, soap12] = await Promise.all([listenVersion('1.1', service, wsdlXml), listenVersion('1.2', service, wsdlXml)]);
  const servers: Record<SoapVersion, LibraryServer> = { '1.1': soap11, '1.2': soap12 };
  const outputs = outputElements(soap11, service.name);
  // The same result always has the same document: the empty result of every report operation, and
  // HelloWorld's constant text. Such short results are serialised once per version and operation.
  const documents = new Map<string, string>();
  return {
    responseDocument(version, operation, result) {
      const output = outputs.get(operation);
      if (!output) throw new Error(`The WSDL of ${service.name} has no operation ${operation}`);
      const key = documentKey(version, operation, result);
      let document = key === undefined ? undefined : documents.get(key);
      if (document === undefined) {
        document = serialise(servers[version], output, result);
        if (key !== undefined && documents.size < MAX_KEPT_DOCUMENTS) documents.set(key, document);
      }
      return document;
    },
  };
}

/** Documents kept per service: every operation's empty answer in both versions, and a few short results. */
const MAX_KEPT_DOCUMENTS = 256;
const MAX_KEPT_RESULT_CHARS = 256;

/** The key a result's document is kept under, or undefined for a result too long to keep. */
function documentKey(version: SoapVersion, operation: string, result: Record<string, string>): string | undefined {
  const text = JSON.stringify(result);
  return text.length > MAX_KEPT_RESULT_CHARS ? undefined : `${version} ${operation} ${text}`;
}

/**
 * The parts of the library's server this module uses (typed private in soap 1.13, public at run
 * time): the parsed WSDL with its serialiser, the namespace declarations written on every envelope,
 * and the envelope writer.
 */
interface LibraryServer {
  wsdl: {
    xmlnsInEnvelope: string;
    definitions: { services: Record<string, { ports: Record<string, { binding: LibraryBinding }> } | undefined> };
    objectToDocumentXML(name: string, params: unknown, alias: string | undefined, namespace: string | undefined): string;
  };
  _envelope(body: string, headers: string, includeTimestamp: boolean): string;
}

interface LibraryBinding {
  style?: string;
  methods: Record<string, { output?: { $name: string; targetNSAlias?: string; targetNamespace?: string } } | undefined>;
}

/** The library's own serialisation: the output element of `result`, in the version's envelope. */
function serialise(server: LibraryServer, output: OutputElement, result: Record<string, string>): string {
  return server._envelope(server.wsdl.objectToDocumentXML(output.name, result, output.alias, output.namespace), '', false);
}

interface OutputElement {
  name: string;
  alias?: string;
  namespace?: string;
}

function listenVersion(version: SoapVersion, service: Service, wsdlXml: string): Promise<LibraryServer> {
  // The library attaches its request listener to this router, which is never mounted.
  const router = Router();
  return new Promise((resolve, reject) => {
    soap.listen(router, {
      path: service.path,
      services: { [service.name]: {} },
      xml: wsdlXml,
      useEmptyTag: true,
      forceSoap12Headers: version === '1.2',
      callback: (error: unknown, server: soap.Server) => {
        if (error) return reject(error instanceof Error ? error : new Error(`soap.listen could not read the WSDL: ${inspect(error)}`));
        const library = server as unknown as LibraryServer;
        library.wsdl.xmlnsInEnvelope = XSI_XSD;
        resolve(library);
      },
    });
  });
}

/**
 * Each operation's output element, as the library's own dispatch finds it: from the document-style
 * binding of a port of the service (both SOAP bindings declare the same elements).
 */
function outputElements(server: LibraryServer, serviceName: string): Map<string, OutputElement> {
  const definition = server.wsdl.definitions.services[serviceName];
  if (!definition) throw new Error(`The WSDL has no service named ${serviceName}`);
  const outputs = new Map<string, OutputElement>();
  for (const { binding } of Object.values(definition.ports)) {
    if (binding.style !== 'document') continue;
    for (const [operation, method] of Object.entries(binding.methods)) {
      const output = method?.output;
      if (output && !outputs.has(operation)) outputs.set(operation, { name: output.$name, alias: output.targetNSAlias, namespace: output.targetNamespace });
    }
  }
  return outputs;
}
