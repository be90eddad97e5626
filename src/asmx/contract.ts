/** The WSDL as the source of truth: the server refuses to start on any difference from the service object. */
import fs from 'node:fs';
import path from 'node:path';
import { contractInputs, type Service } from '../services/types';
import { REGENERATE, typedContractDifferences, WSDL_NS } from './contract-v2';
import { XSD_NS } from './typed-xml';
import { childrenNamed, firstChildNamed, parseXml, type XmlElement } from './xml-tree';
import { escapeXml } from './xml-escape';

export interface ContractOperation {
  name: string;
  /** Parameter names in WSDL order, spelled as in the WSDL. */
  params: string[];
  /** The element the response holds (HelloWorldResult); undefined for the empty legacy responses. */
  result?: string;
}

export interface ServiceDescription {
  serviceName: string;
  targetNamespace: string;
  /** The WSDL text with the namespace filled in; addresses still read {{address}}. */
  wsdlTemplate: string;
  /** In WSDL order. */
  operations: ContractOperation[];
  /** The parsed document. */
  document: XmlElement;
}

export class ContractMismatchError extends Error {
  constructor(
    readonly serviceName: string,
    readonly differences: string[],
  ) {
    super(`The WSDL of ${serviceName} and its implementation differ:\n  - ${differences.join('\n  - ')}`);
    this.name = 'ContractMismatchError';
  }
}

export const ADDRESS_PLACEHOLDER = '{{address}}';

/** Reads the WSDL file of a service from the project's wsdl/ folder, or the one under its wsdlRoot. */
export function loadServiceDescription(
  service: Pick<Service, 'wsdlFile' | 'wsdlRoot' | 'namespace'>,
): ServiceDescription {
  const text = fs.readFileSync(path.join(service.wsdlRoot ?? projectRoot(), service.wsdlFile), 'utf8');
  return describeWsdl(text, service.namespace);
}

/** Parses a WSDL text with {{namespace}} placeholders (exported so tests can feed a modified text). */
export function describeWsdl(template: string, namespace: string): ServiceDescription {
  const wsdlTemplate = template.split('{{namespace}}').join(escapeXml(namespace));
  const root = parseXml(wsdlTemplate.split(ADDRESS_PLACEHOLDER).join('urn:address'));
  if (root.uri !== WSDL_NS || root.local !== 'definitions')
    throw new Error('not a WSDL document: the root is not wsdl:definitions');
  const service = firstChildNamed(root, WSDL_NS, 'service');
  if (!service?.attributes.name) throw new Error('the WSDL has no named wsdl:service');
  const serviceName = service.attributes.name;
  return {
    serviceName,
    targetNamespace: root.attributes.targetNamespace ?? '',
    document: root,
    wsdlTemplate,
    operations: soapOperations(root, serviceName).map((name) => ({
      name,
      params: schemaSequence(root, name),
      result: schemaSequence(root, `${name}Response`)[0],
    })),
  };
}

/** Every difference between the WSDL and the service object; a v2 WSDL also lists the extension fields and typed results. */
export function contractDifferences(
  description: ServiceDescription,
  service: Pick<Service, 'name' | 'operations' | 'contract' | 'wsdlFile'>,
): string[] {
  const differences: string[] = [];
  if (description.serviceName !== service.name) {
    differences.push(`the WSDL describes service ${description.serviceName}, the implementation is ${service.name}`);
  }
  const described = new Map(description.operations.map((op) => [op.name, op]));
  for (const op of description.operations) {
    const implemented = service.operations.get(op.name);
    if (!implemented) {
      differences.push(`operation ${op.name} of the WSDL has no implementation`);
    } else if (op.params.join() !== contractInputs(implemented, service.contract).join()) {
      differences.push(
        `operation ${op.name}: the WSDL lists parameters (${op.params.join(', ')}), the implementation (${contractInputs(implemented, service.contract).join(', ')})`,
      );
    }
  }
  for (const op of service.operations.values()) {
    if (described.has(op.name)) continue;
    // The v2 WSDL follows from the declarations; the legacy one is the contract, written by hand.
    differences.push(
      `operation ${op.name} is implemented but not in the WSDL${service.contract === 'v2' ? REGENERATE : ''}`,
    );
  }
  if (service.contract === 'v2' && differences.length === 0)
    differences.push(...typedContractDifferences(description, service));
  return differences;
}

/** The start-up check: throws ContractMismatchError naming every difference. */
export function assertContract(
  description: ServiceDescription,
  service: Pick<Service, 'name' | 'operations' | 'contract' | 'wsdlFile'>,
): void {
  const differences = contractDifferences(description, service);
  if (differences.length > 0) throw new ContractMismatchError(service.name, differences);
}

function soapOperations(root: XmlElement, serviceName: string): string[] {
  const portType = childrenNamed(root, WSDL_NS, 'portType').find((p) => p.attributes.name === `${serviceName}Soap`);
  if (!portType) throw new Error(`the WSDL has no portType ${serviceName}Soap`);
  return childrenNamed(portType, WSDL_NS, 'operation').map((op) => op.attributes.name ?? '');
}

/** The request element's sequence in the schema (docs/contract.md, "WSDL": one s:element per parameter). */
function schemaSequence(root: XmlElement, elementName: string): string[] {
  const types = firstChildNamed(root, WSDL_NS, 'types');
  const schemas = types ? childrenNamed(types, XSD_NS, 'schema') : [];
  const element = schemas
    .flatMap((s) => childrenNamed(s, XSD_NS, 'element'))
    .find((e) => e.attributes.name === elementName);
  if (!element) throw new Error(`the WSDL schema has no element ${elementName}`);
  const sequence = firstChildNamed(firstChildNamed(element, XSD_NS, 'complexType') ?? element, XSD_NS, 'sequence');
  return sequence ? childrenNamed(sequence, XSD_NS, 'element').map((e) => e.attributes.name ?? '') : [];
}

/** The folder holding wsdl/, from src/asmx or dist/src/asmx. */
function projectRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'wsdl')) || !fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`wsdl/ folder not found above ${__dirname}`);
    dir = parent;
  }
  return dir;
}
