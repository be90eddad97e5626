/**
 * All the project takes from the npm soap library, through its exported WSDL class: the legacy bytes
 * depend on exactly what it writes, so soap-library.test.ts pins them for an upgrade.
 */
import { WSDL } from 'soap';

export type LibraryWsdl = WSDL;

/** useEmptyTag writes an element without content as `<name xmlns="ns" />`, as ASMX does. */
export function readWsdl(xml: string, options: { useEmptyTag?: boolean } = {}): Promise<LibraryWsdl> {
  const wsdl = new WSDL(xml, 'urn:service', options);
  return new Promise((resolve, reject) => wsdl.onReady((error) => (error ? reject(error) : resolve(wsdl))));
}

/** An operation's output element, as the WSDL's document/literal binding declares it. */
export interface OutputElement {
  name: string;
  alias: string;
  namespace: string;
}

/** Each operation's output element, as the library's dispatch finds it in a document-style binding. */
export function outputElements(wsdl: LibraryWsdl, serviceName: string): Map<string, OutputElement> {
  const definition = wsdl.definitions.services[serviceName];
  if (!definition) throw new Error(`The WSDL has no service named ${serviceName}`);
  const outputs = new Map<string, OutputElement>();
  for (const { binding } of Object.values(definition.ports)) {
    if (binding.style !== 'document') continue;
    for (const [operation, method] of Object.entries(binding.methods)) {
      const { $name: name, targetNSAlias: alias, targetNamespace: namespace } = method.output ?? {};
      if (name && alias !== undefined && namespace !== undefined && !outputs.has(operation))
        outputs.set(operation, { name, alias, namespace });
    }
  }
  return outputs;
}

/** The output element holding `result`, as the library's server writes it inside the Body. */
export function outputXml(wsdl: LibraryWsdl, output: OutputElement, result: Record<string, string>): string {
  return wsdl.objectToDocumentXML(output.name, result, output.alias, output.namespace) as string;
}

/** `value`'s members as sibling elements in `namespace`, without a namespace declaration of their own. */
export function childrenXml(wsdl: LibraryWsdl, value: Record<string, unknown>, namespace: string): string {
  return wsdl.objectToXML(value, '', '', namespace, false, null, null) as string;
}
