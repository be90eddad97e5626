/**
 * The shape of an ASMX-generated WSDL (docs/contract.md, "WSDL"; docs/contract.md, "Recorded legacy answers"),
 * read from a parsed document. Each function returns what differs from the contract (empty: none),
 * so one check reports every difference of its part at once.
 */
import type { ContractOperation, ContractService } from './interface';
import { child, children, resolveQName, type XmlNode } from './xml';

export const NS = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  xs: 'http://www.w3.org/2001/XMLSchema',
  soap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  soap12: 'http://schemas.xmlsoap.org/wsdl/soap12/',
  http: 'http://schemas.xmlsoap.org/wsdl/http/',
  mime: 'http://schemas.xmlsoap.org/wsdl/mime/',
  soapHttpTransport: 'http://schemas.xmlsoap.org/soap/http',
} as const;

type Problems = string[];

export function rootProblems(root: XmlNode, ns: string): Problems {
  const problems: Problems = [];
  if (root.uri !== NS.wsdl || root.local !== 'definitions')
    problems.push(`root is {${root.uri}}${root.local}, not wsdl:definitions`);
  if (root.attributes.targetNamespace !== ns)
    problems.push(`targetNamespace is ${root.attributes.targetNamespace}, not ${ns}`);
  return problems;
}

export function typesProblems(root: XmlNode, contract: ContractService, ns: string): Problems {
  const schemas = children(child(root, NS.wsdl, 'types') ?? emptyNode(), NS.xs, 'schema');
  if (schemas.length !== 1) return [`expected one s:schema in wsdl:types, found ${schemas.length}`];
  const schema = schemas[0];
  const problems: Problems = [];
  if (schema.attributes.elementFormDefault !== 'qualified')
    problems.push('s:schema elementFormDefault is not "qualified"');
  if (schema.attributes.targetNamespace !== ns)
    problems.push(`s:schema targetNamespace is ${schema.attributes.targetNamespace}, not ${ns}`);
  const elements = new Map(children(schema, NS.xs, 'element').map((e) => [e.attributes.name, e]));
  for (const operation of contract.operations) {
    problems.push(...sequenceProblems(elements.get(operation.name), operation.name, operation.params));
    problems.push(
      ...sequenceProblems(
        elements.get(`${operation.name}Response`),
        `${operation.name}Response`,
        operation.returnsString ? [`${operation.name}Result`] : [],
      ),
    );
  }
  if (contract.operations.some((op) => op.returnsString)) {
    const string = elements.get('string');
    const type = string && resolveQName(string, string.attributes.type);
    if (!string || string.attributes.nillable !== 'true' || type?.uri !== NS.xs || type.local !== 'string') {
      problems.push('missing <s:element name="string" nillable="true" type="s:string" />');
    }
  }
  return problems;
}

/** <s:element name=N><s:complexType><s:sequence> of optional s:string elements, or an empty complexType. */
function sequenceProblems(element: XmlNode | undefined, name: string, params: readonly string[]): Problems {
  if (!element) return [`element ${name} is missing from the schema`];
  const complexType = child(element, NS.xs, 'complexType');
  if (!complexType) return [`element ${name} has no s:complexType`];
  const sequence = child(complexType, NS.xs, 'sequence');
  if (params.length === 0)
    return sequence || complexType.children.length > 0 ? [`element ${name} should have an empty s:complexType`] : [];
  const items = sequence ? children(sequence, NS.xs, 'element') : [];
  const names = items.map((item) => item.attributes.name);
  if (names.join(',') !== params.join(','))
    return [`element ${name} has parameters [${names.join(', ')}], expected [${params.join(', ')}]`];
  const wrong = items.filter((item) => {
    const type = resolveQName(item, item.attributes.type);
    return (
      item.attributes.minOccurs !== '0' ||
      item.attributes.maxOccurs !== '1' ||
      type?.uri !== NS.xs ||
      type.local !== 'string'
    );
  });
  return wrong.map(
    (item) => `parameter ${name}.${item.attributes.name} is not minOccurs="0" maxOccurs="1" type="s:string"`,
  );
}

export function messageProblems(root: XmlNode, contract: ContractService, ns: string): Problems {
  const messages = new Map(children(root, NS.wsdl, 'message').map((m) => [m.attributes.name, m]));
  const problems: Problems = [];
  for (const operation of contract.operations) {
    const name = operation.name;
    problems.push(...elementPartProblems(messages.get(`${name}SoapIn`), `${name}SoapIn`, 'parameters', name, ns));
    problems.push(
      ...elementPartProblems(messages.get(`${name}SoapOut`), `${name}SoapOut`, 'parameters', `${name}Response`, ns),
    );
    for (const verb of ['HttpGet', 'HttpPost']) {
      problems.push(...typePartProblems(messages.get(`${name}${verb}In`), `${name}${verb}In`, operation.params));
      const out = `${name}${verb}Out`;
      if (operation.returnsString) problems.push(...elementPartProblems(messages.get(out), out, 'Body', 'string', ns));
      else problems.push(...typePartProblems(messages.get(out), out, []));
    }
  }
  return problems;
}

function elementPartProblems(
  message: XmlNode | undefined,
  name: string,
  part: string,
  element: string,
  ns: string,
): Problems {
  if (!message) return [`message ${name} is missing`];
  const parts = children(message, NS.wsdl, 'part');
  const target = parts.length === 1 ? resolveQName(parts[0], parts[0].attributes.element) : undefined;
  if (parts.length !== 1 || parts[0].attributes.name !== part || target?.uri !== ns || target.local !== element) {
    return [`message ${name} should have one part name="${part}" element="tns:${element}"`];
  }
  return [];
}

function typePartProblems(message: XmlNode | undefined, name: string, params: readonly string[]): Problems {
  if (!message) return [`message ${name} is missing`];
  const parts = children(message, NS.wsdl, 'part');
  const names = parts.map((part) => part.attributes.name);
  if (names.join(',') !== params.join(','))
    return [`message ${name} has parts [${names.join(', ')}], expected [${params.join(', ')}]`];
  const wrong = parts.filter((part) => {
    const type = resolveQName(part, part.attributes.type);
    return type?.uri !== NS.xs || type.local !== 'string';
  });
  return wrong.map((part) => `part ${name}.${part.attributes.name} is not type="s:string"`);
}

/** <Service>Soap (shared by SOAP 1.2), <Service>HttpGet and <Service>HttpPost. */
export function portTypeProblems(root: XmlNode, contract: ContractService, ns: string): Problems {
  const portTypes = new Map(children(root, NS.wsdl, 'portType').map((p) => [p.attributes.name, p]));
  const problems: Problems = [];
  for (const [suffix, messageSuffix] of [
    ['Soap', 'Soap'],
    ['HttpGet', 'HttpGet'],
    ['HttpPost', 'HttpPost'],
  ] as const) {
    const name = `${contract.name}${suffix}`;
    const portType = portTypes.get(name);
    if (!portType) {
      problems.push(`portType ${name} is missing`);
      continue;
    }
    for (const [operation, node] of operationNodes(portType, name, contract, problems)) {
      for (const [direction, end] of [
        ['input', 'In'],
        ['output', 'Out'],
      ] as const) {
        const io = child(node, NS.wsdl, direction);
        const message = io && resolveQName(io, io.attributes.message);
        if (message?.uri !== ns || message.local !== `${operation.name}${messageSuffix}${end}`) {
          problems.push(`${name}.${operation.name} ${direction} should be tns:${operation.name}${messageSuffix}${end}`);
        }
      }
    }
  }
  return problems;
}

/**
 * The parent's wsdl:operation elements paired with the contract operations they name (a missing one is
 * left out), after adding a problem when the names differ from the contract's.
 */
function operationNodes(
  parent: XmlNode,
  where: string,
  contract: ContractService,
  problems: Problems,
): [ContractOperation, XmlNode][] {
  const nodes = new Map(children(parent, NS.wsdl, 'operation').map((o) => [o.attributes.name, o]));
  const expected = contract.operations.map((op) => op.name).sort();
  const actual = [...nodes.keys()].sort();
  if (actual.join(',') !== expected.join(','))
    problems.push(`${where} has operations [${actual.join(', ')}], expected [${expected.join(', ')}]`);
  return contract.operations.flatMap((operation): [ContractOperation, XmlNode][] => {
    const node = nodes.get(operation.name);
    return node ? [[operation, node]] : [];
  });
}

export function bindingProblems(root: XmlNode, contract: ContractService, ns: string): Problems {
  const bindings = new Map(children(root, NS.wsdl, 'binding').map((b) => [b.attributes.name, b]));
  return [
    ...soapBindingProblems(bindings.get(`${contract.name}Soap`), `${contract.name}Soap`, NS.soap, contract, ns),
    ...soapBindingProblems(bindings.get(`${contract.name}Soap12`), `${contract.name}Soap12`, NS.soap12, contract, ns),
    ...httpBindingProblems(bindings.get(`${contract.name}HttpGet`), `${contract.name}HttpGet`, 'GET', contract, ns),
    ...httpBindingProblems(bindings.get(`${contract.name}HttpPost`), `${contract.name}HttpPost`, 'POST', contract, ns),
  ];
}

function soapBindingProblems(
  binding: XmlNode | undefined,
  name: string,
  soapNs: string,
  contract: ContractService,
  ns: string,
): Problems {
  if (!binding) return [`binding ${name} is missing`];
  const problems = bindingTypeProblems(binding, name, `${contract.name}Soap`, ns);
  if (child(binding, soapNs, 'binding')?.attributes.transport !== NS.soapHttpTransport)
    problems.push(`binding ${name} has no SOAP over HTTP transport`);
  for (const [operation, node] of operationNodes(binding, `binding ${name}`, contract, problems)) {
    const soapOperation = child(node, soapNs, 'operation');
    if (soapOperation?.attributes.soapAction !== ns + operation.name)
      problems.push(
        `${name}.${operation.name} soapAction is ${soapOperation?.attributes.soapAction}, expected ${ns + operation.name}`,
      );
    if (soapOperation?.attributes.style !== 'document')
      problems.push(`${name}.${operation.name} style is not "document"`);
    for (const direction of ['input', 'output']) {
      const body = child(child(node, NS.wsdl, direction) ?? emptyNode(), soapNs, 'body');
      if (body?.attributes.use !== 'literal')
        problems.push(`${name}.${operation.name} ${direction} is not <body use="literal" />`);
    }
  }
  return problems;
}

function httpBindingProblems(
  binding: XmlNode | undefined,
  name: string,
  verb: 'GET' | 'POST',
  contract: ContractService,
  ns: string,
): Problems {
  if (!binding) return [`binding ${name} is missing`];
  const problems = bindingTypeProblems(binding, name, name, ns);
  if (child(binding, NS.http, 'binding')?.attributes.verb !== verb)
    problems.push(`binding ${name} is not <http:binding verb="${verb}" />`);
  for (const [operation, node] of operationNodes(binding, `binding ${name}`, contract, problems)) {
    if (child(node, NS.http, 'operation')?.attributes.location !== `/${operation.name}`)
      problems.push(`${name}.${operation.name} location is not "/${operation.name}"`);
    const input = child(node, NS.wsdl, 'input') ?? emptyNode();
    const inputOk =
      verb === 'GET'
        ? child(input, NS.http, 'urlEncoded') !== undefined
        : child(input, NS.mime, 'content')?.attributes.type === 'application/x-www-form-urlencoded';
    if (!inputOk)
      problems.push(
        `${name}.${operation.name} input is not ${verb === 'GET' ? '<http:urlEncoded />' : '<mime:content type="application/x-www-form-urlencoded" />'}`,
      );
    const output = child(node, NS.wsdl, 'output');
    const outputOk = operation.returnsString
      ? output && child(output, NS.mime, 'mimeXml')?.attributes.part === 'Body'
      : output && output.children.length === 0;
    if (!outputOk)
      problems.push(
        `${name}.${operation.name} output is not ${operation.returnsString ? '<mime:mimeXml part="Body" />' : 'an empty <wsdl:output />'}`,
      );
  }
  return problems;
}

function bindingTypeProblems(binding: XmlNode, name: string, portType: string, ns: string): Problems {
  const type = resolveQName(binding, binding.attributes.type);
  return type?.uri === ns && type.local === portType ? [] : [`binding ${name} type is not tns:${portType}`];
}

export interface ServicePort {
  name: string;
  binding?: { uri: string; local: string };
  /** soap, soap12 or http */
  addressKind?: string;
  location?: string;
}

export function servicePorts(root: XmlNode, serviceName: string): ServicePort[] | undefined {
  const service = children(root, NS.wsdl, 'service').find((s) => s.attributes.name === serviceName);
  if (!service) return undefined;
  return children(service, NS.wsdl, 'port').map((port) => {
    const address = port.children.find(
      (c) => c.local === 'address' && (c.uri === NS.soap || c.uri === NS.soap12 || c.uri === NS.http),
    );
    const kind = address && (address.uri === NS.soap ? 'soap' : address.uri === NS.soap12 ? 'soap12' : 'http');
    return {
      name: port.attributes.name,
      binding: resolveQName(port, port.attributes.binding),
      addressKind: kind,
      location: address?.attributes.location,
    };
  });
}

/** Ports <S>Soap, <S>Soap12, <S>HttpGet, <S>HttpPost, each bound to its binding with the right address element. */
export function serviceProblems(root: XmlNode, contract: ContractService, ns: string): Problems {
  const ports = servicePorts(root, contract.name);
  if (!ports) return [`wsdl:service ${contract.name} is missing`];
  const expected = [
    ['Soap', 'soap'],
    ['Soap12', 'soap12'],
    ['HttpGet', 'http'],
    ['HttpPost', 'http'],
  ] as const;
  const problems: Problems = [];
  if (ports.length !== expected.length) problems.push(`wsdl:service has ${ports.length} ports, expected 4`);
  for (const [suffix, kind] of expected) {
    const name = `${contract.name}${suffix}`;
    const port = ports.find((p) => p.name === name);
    if (!port) problems.push(`port ${name} is missing`);
    else if (port.binding?.uri !== ns || port.binding.local !== name || port.addressKind !== kind)
      problems.push(`port ${name} should bind tns:${name} with a ${kind}:address`);
  }
  return problems;
}

function emptyNode(): XmlNode {
  return { uri: '', local: '', attributes: {}, scope: {}, children: [], text: '' };
}
