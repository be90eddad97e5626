/**
 * The v2 WSDL must declare exactly the typed results the v2 bindings write from the declarations
 * (docs/v2.md); v2Wsdl writes it from the legacy WSDL and the declarations (npm run v2-wsdl).
 */
import { isScalar, type FieldType, type RecordType, type ResultType, type ScalarKind } from '../operations/results';
import { contractInputs, type Service, type ServiceOperation } from '../services/types';
import type { ServiceDescription } from './contract';
import { SERVICE_ERROR_TYPE, v2ResultTypeName, XSD_NS, XSD_TYPE } from './typed-xml';
import { childrenNamed, firstChildNamed, resolveQName, type XmlElement } from './xml-tree';

export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';

/** One element of a sequence as the v2 contract declares it. */
interface Particle {
  name: string;
  /** The type's namespace URI and local name. */
  type: { uri: string; local: string };
  nillable: boolean;
  /** true: maxOccurs="unbounded" (the item of an ArrayOf type). */
  repeated: boolean;
  /** minOccurs="0": written only (the ASMX shape), not compared. */
  optional?: boolean;
}

/** The types an operation's result needs, by name, in the order of first use. */
class ExpectedTypes {
  readonly types = new Map<string, Particle[]>();

  constructor(private readonly tns: string) {}

  scalar(name: string, kind: ScalarKind, nillable = false, optional = false): Particle {
    return { name, type: { uri: XSD_NS, local: XSD_TYPE[kind] }, nillable, repeated: false, optional };
  }

  named(name: string, local: string, optional = false): Particle {
    return { name, type: { uri: this.tns, local }, nillable: false, repeated: false, optional };
  }

  /** The one element of `<op>Response`, adding the result's types. */
  response(op: Pick<ServiceOperation, 'name' | 'returns'>): Particle {
    if (op.returns.kind === 'text') return this.scalar(`${op.name}Result`, 'string', false, true);
    const resultType = v2ResultTypeName(op.name);
    this.types.set(resultType, this.resultParticles(op.returns));
    return this.named(`${op.name}Result`, resultType, true);
  }

  private resultParticles(returns: Exclude<ResultType, { kind: 'text' }>): Particle[] {
    const list = [this.scalar('Message', 'string')];
    if (returns.kind === 'rows') {
      list.push(this.scalar('Count', 'integer', false, true), this.named('Data', this.arrayType(returns.row), true));
      if (returns.totals) {
        this.recordType(returns.totals);
        list.push(this.named('Totals', returns.totals.name, true));
      }
    } else {
      this.recordType(returns.type);
      list.push(this.named('Data', returns.type.name, true));
    }
    if (returns.pageable) list.push(this.scalar('NextPageToken', 'string', true, true));
    return list;
  }

  private recordType(type: RecordType): void {
    if (this.types.has(type.name)) return;
    this.types.set(type.name, []);
    this.types.set(
      type.name,
      Object.entries(type.fields).map(([name, field]) => this.particle(name, field)),
    );
  }

  private arrayType(type: RecordType): string {
    this.recordType(type);
    this.types.set(`ArrayOf${type.name}`, [
      { name: type.name, type: { uri: this.tns, local: type.name }, nillable: false, repeated: true, optional: true },
    ]);
    return `ArrayOf${type.name}`;
  }

  private particle(name: string, field: FieldType): Particle {
    if (isScalar(field)) return this.scalar(name, field.kind, field.nullable);
    if ('list' in field) return this.named(name, this.arrayType(field.list));
    this.recordType(field.record);
    return this.named(name, field.record.name);
  }
}

/** Every difference between the v2 WSDL's types and the operations' declarations; empty when they agree. */
export function typedContractDifferences(
  description: ServiceDescription,
  service: Pick<Service, 'operations' | 'wsdlFile'>,
): string[] {
  const root = description.document;
  const tns = description.targetNamespace;
  const schema = new SchemaIndex(root);
  const differences: string[] = [];
  const expected = new ExpectedTypes(tns);

  for (const op of service.operations.values()) {
    const response = schema.elementSequence(`${op.name}Response`);
    differences.push(...compare(`element ${op.name}Response`, response, [expected.response(op)]));
    if (op.returns.kind === 'text') continue;
    const resultType = v2ResultTypeName(op.name);
    const global = schema.element(resultType);
    if (!global) differences.push(`the schema has no element ${resultType} (the HTTP GET/POST answer of ${op.name})`);
    else if (!sameName(schema.typeOf(global), { uri: tns, local: resultType }))
      differences.push(`element ${resultType} is not of type ${resultType}`);
  }
  for (const [name, particles] of expected.types) {
    const actual = schema.complexTypeSequence(name);
    if (actual === undefined) differences.push(`the schema has no complexType ${name}${REGENERATE}`);
    else differences.push(...compare(`complexType ${name}`, actual, particles));
  }
  if (service.operations.size > 0 && [...service.operations.values()].some((op) => op.returns.kind !== 'text')) {
    differences.push(...faultDifferences(root, schema, tns, [...service.operations.keys()]));
  }
  return differences;
}

/** What a difference of the v2 WSDL tells the developer to do. */
export const REGENERATE = '; npm run v2-wsdl writes wsdl/v2/ again from the legacy WSDL and the declarations';

type PortTypeName = 'Soap' | 'HttpGet' | 'HttpPost';
type BindingName = PortTypeName | 'Soap12';

/** An operation's parts outside the schema: its messages by binding, its operation in each port type and binding. */
interface OperationXml {
  messages: { soap: string[]; httpGet: string[]; httpPost: string[] };
  portType: Record<PortTypeName, string>;
  binding: Record<BindingName, string>;
}

function operationXml(op: ServiceOperation): OperationXml {
  const inputs = contractInputs(op, 'v2');
  const typed = op.returns.kind !== 'text';
  const body = typed ? v2ResultTypeName(op.name) : 'string';
  const httpMessages = (binding: string) => [
    inputs.length === 0
      ? `  <wsdl:message name="${op.name}${binding}In" />`
      : message(
          `${op.name}${binding}In`,
          inputs.map((name) => `<wsdl:part name="${name}" type="s:string" />`),
        ),
    message(`${op.name}${binding}Out`, [`<wsdl:part name="Body" element="tns:${body}" />`]),
  ];
  const portType = (binding: string, lines: string[] = []) =>
    operation(op.name, [
      `<wsdl:input message="tns:${op.name}${binding}In" />`,
      `<wsdl:output message="tns:${op.name}${binding}Out" />`,
      ...lines,
    ]);
  const soapBinding = (prefix: string) =>
    operation(op.name, [
      `<${prefix}:operation soapAction="{{namespace}}${op.name}" style="document" />`,
      ...wrapped('wsdl:input', [`<${prefix}:body use="literal" />`]),
      ...wrapped('wsdl:output', [`<${prefix}:body use="literal" />`]),
      ...(typed
        ? wrapped('wsdl:fault name="ServiceError"', [`<${prefix}:fault name="ServiceError" use="literal" />`])
        : []),
    ]);
  const httpBinding = (input: string) =>
    operation(op.name, [
      `<http:operation location="/${op.name}" />`,
      ...wrapped('wsdl:input', [input]),
      ...wrapped('wsdl:output', ['<mime:mimeXml part="Body" />']),
    ]);
  return {
    messages: {
      soap: [
        message(`${op.name}SoapIn`, [`<wsdl:part name="parameters" element="tns:${op.name}" />`]),
        message(`${op.name}SoapOut`, [`<wsdl:part name="parameters" element="tns:${op.name}Response" />`]),
      ],
      httpGet: httpMessages('HttpGet'),
      httpPost: httpMessages('HttpPost'),
    },
    portType: {
      Soap: portType('Soap', typed ? ['<wsdl:fault name="ServiceError" message="tns:ServiceErrorFault" />'] : []),
      HttpGet: portType('HttpGet'),
      HttpPost: portType('HttpPost'),
    },
    binding: {
      Soap: soapBinding('soap'),
      Soap12: soapBinding('soap12'),
      HttpGet: httpBinding('<http:urlEncoded />'),
      HttpPost: httpBinding('<mime:content type="application/x-www-form-urlencoded" />'),
    },
  };
}

const prefixed = (type: { uri: string; local: string }) => `${type.uri === XSD_NS ? 's' : 'tns'}:${type.local}`;

function sequence(particles: Particle[], indent: string): string[] {
  return particles.map(
    (p) =>
      `${indent}<s:element minOccurs="${p.optional ? 0 : 1}" maxOccurs="${p.repeated ? 'unbounded' : 1}" name="${p.name}"${p.nillable ? ' nillable="true"' : ''} type="${prefixed(p.type)}" />`,
  );
}

function element(name: string, particles: Particle[]): string {
  const type =
    particles.length === 0
      ? ['        <s:complexType />']
      : [
          '        <s:complexType>',
          '          <s:sequence>',
          ...sequence(particles, '            '),
          '          </s:sequence>',
          '        </s:complexType>',
        ];
  return [`      <s:element name="${name}">`, ...type, '      </s:element>'].join('\n');
}

function complexType(name: string, particles: Particle[]): string {
  return [
    `      <s:complexType name="${name}">`,
    '        <s:sequence>',
    ...sequence(particles, '          '),
    '        </s:sequence>',
    '      </s:complexType>',
  ].join('\n');
}

function message(name: string, parts: string[]): string {
  return [`  <wsdl:message name="${name}">`, ...parts.map((part) => `    ${part}`), '  </wsdl:message>'].join('\n');
}

function wrapped(tag: string, lines: string[]): string[] {
  return [`<${tag}>`, ...lines.map((line) => `  ${line}`), `</${tag.split(' ')[0]}>`];
}

function operation(name: string, lines: string[]): string {
  return [`    <wsdl:operation name="${name}">`, ...lines.map((line) => `      ${line}`), '    </wsdl:operation>'].join(
    '\n',
  );
}

/** The ServiceError fault type and element, and a ServiceError fault on every operation of the SOAP port type. */
function faultDifferences(root: XmlElement, schema: SchemaIndex, tns: string, operations: string[]): string[] {
  const expected = Object.entries(SERVICE_ERROR_TYPE.fields).map(([name, field]): Particle => {
    if (!isScalar(field)) throw new Error('the ServiceError type holds text fields only');
    return { name, type: { uri: XSD_NS, local: XSD_TYPE[field.kind] }, nillable: field.nullable, repeated: false };
  });
  const differences = compare('complexType ServiceError', schema.complexTypeSequence('ServiceError'), expected);
  const element = schema.element('ServiceError');
  if (!element || !sameName(schema.typeOf(element), { uri: tns, local: 'ServiceError' }))
    differences.push('the schema has no element ServiceError of type ServiceError');
  const portType = childrenNamed(root, WSDL_NS, 'portType').find((p) => p.attributes.name?.endsWith('Soap'));
  for (const name of operations) {
    const op = portType && childrenNamed(portType, WSDL_NS, 'operation').find((o) => o.attributes.name === name);
    if (!op || !childrenNamed(op, WSDL_NS, 'fault').some((f) => f.attributes.name === 'ServiceError'))
      differences.push(`operation ${name} declares no ServiceError fault`);
  }
  return differences;
}

function compare(what: string, actual: Particle[] | undefined, expected: Particle[]): string[] {
  if (actual === undefined) return [`the schema has no ${what}`];
  const describe = (p: Particle) =>
    `${p.name}: ${p.type.local}${p.nillable ? ' (nillable)' : ''}${p.repeated ? ' (repeated)' : ''}${p.type.uri === XSD_NS ? '' : ` in ${p.type.uri}`}`;
  const want = expected.map(describe);
  const have = actual.map(describe);
  const differences: string[] = [];
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    if (want[i] === have[i]) continue;
    differences.push(
      `${what}, element ${i + 1}: the WSDL declares ${have[i] ?? 'nothing'}, the operations answer ${want[i] ?? 'nothing'}`,
    );
  }
  return differences;
}

function sameName(a: { uri: string; local: string } | undefined, b: { uri: string; local: string }): boolean {
  return a !== undefined && a.uri === b.uri && a.local === b.local;
}

/** The global elements and complex types of the WSDL's schemas, by name. */
class SchemaIndex {
  private readonly elements = new Map<string, XmlElement>();
  private readonly complexTypes = new Map<string, XmlElement>();

  constructor(root: XmlElement) {
    const types = firstChildNamed(root, WSDL_NS, 'types');
    for (const schema of types ? childrenNamed(types, XSD_NS, 'schema') : []) {
      for (const element of childrenNamed(schema, XSD_NS, 'element'))
        this.elements.set(element.attributes.name ?? '', element);
      for (const type of childrenNamed(schema, XSD_NS, 'complexType'))
        this.complexTypes.set(type.attributes.name ?? '', type);
    }
  }

  element(name: string): XmlElement | undefined {
    return this.elements.get(name);
  }

  typeOf(element: XmlElement): { uri: string; local: string } | undefined {
    return element.attributes.type === undefined ? undefined : resolveQName(element, element.attributes.type);
  }

  /** The particles of a global element's anonymous complex type. */
  elementSequence(name: string): Particle[] | undefined {
    const element = this.elements.get(name);
    const type = element && firstChildNamed(element, XSD_NS, 'complexType');
    return type && particles(type);
  }

  complexTypeSequence(name: string): Particle[] | undefined {
    const type = this.complexTypes.get(name);
    return type && particles(type);
  }
}

function particles(complexType: XmlElement): Particle[] {
  const sequence = firstChildNamed(complexType, XSD_NS, 'sequence');
  return (sequence ? childrenNamed(sequence, XSD_NS, 'element') : []).map((e) => ({
    name: e.attributes.name ?? '',
    type: resolveQName(e, e.attributes.type ?? ''),
    nillable: e.attributes.nillable === 'true',
    repeated: e.attributes.maxOccurs === 'unbounded',
  }));
}

/**
 * The v2 WSDL of a service, whole: the legacy WSDL's head, binding heads and service element around
 * the declarations' operations, in their order (npm run v2-wsdl writes it; test/v2/v2-wsdl.test.ts
 * compares it with the file byte for byte).
 */
export function v2Wsdl(legacy: string, service: Pick<Service, 'name' | 'operations'>): string {
  const lines = legacy.split('\n');
  const at = (text: string) => {
    const index = lines.findIndex((line) => line.includes(text));
    if (index < 0) throw new Error(`the legacy WSDL has no line holding ${text}`);
    return index;
  };
  const head = lines.slice(0, at('<s:schema') + 1);
  const tail = lines.slice(at('<wsdl:service'));
  const bindingHead = (binding: string) =>
    lines.slice(
      at(`<wsdl:binding name="${service.name}${binding}"`),
      at(`<wsdl:binding name="${service.name}${binding}"`) + 2,
    );
  const operations = [...service.operations.values()];
  const typed = operations.filter((op) => op.returns.kind !== 'text');
  const expected = new ExpectedTypes('{{namespace}}');
  const schema = operations.flatMap((op) => [
    element(
      op.name,
      contractInputs(op, 'v2').map((name) => expected.scalar(name, 'string', false, true)),
    ),
    element(`${op.name}Response`, [expected.response(op)]),
  ]);
  // The result types first, then the types they use in the order of first use.
  const results = new Set(typed.map((op) => v2ResultTypeName(op.name)));
  const types = [...expected.types].sort(([a], [b]) => Number(results.has(b)) - Number(results.has(a)));
  schema.push(...types.map(([name, particles]) => complexType(name, particles)));
  if (typed.length > 0) {
    const error = Object.entries(SERVICE_ERROR_TYPE.fields).map(([name, field]) =>
      expected.scalar(name, isScalar(field) ? field.kind : 'string', isScalar(field) && field.nullable),
    );
    schema.push(complexType('ServiceError', error), '      <s:element name="ServiceError" type="tns:ServiceError" />');
    schema.push(
      ...typed.map(
        (op) =>
          `      <s:element name="${v2ResultTypeName(op.name)}" nillable="true" type="tns:${v2ResultTypeName(op.name)}" />`,
      ),
    );
  }
  // The HTTP GET/POST answer of a text result, as ASMX declares it.
  if (typed.length < operations.length)
    schema.push('      <s:element name="string" nillable="true" type="s:string" />');
  const pieces = operations.map(operationXml);
  const fault =
    typed.length > 0 ? [message('ServiceErrorFault', ['<wsdl:part name="detail" element="tns:ServiceError" />'])] : [];
  const portType = (name: PortTypeName) => [
    `  <wsdl:portType name="${service.name}${name}">`,
    ...pieces.map((piece) => piece.portType[name]),
    '  </wsdl:portType>',
  ];
  const binding = (name: BindingName) => [
    ...bindingHead(name),
    ...pieces.map((piece) => piece.binding[name]),
    '  </wsdl:binding>',
  ];
  return [
    ...head,
    ...schema,
    '    </s:schema>',
    '  </wsdl:types>',
    ...pieces.flatMap((piece) => piece.messages.soap),
    ...fault,
    ...pieces.flatMap((piece) => piece.messages.httpGet),
    ...pieces.flatMap((piece) => piece.messages.httpPost),
    ...portType('Soap'),
    ...portType('HttpGet'),
    ...portType('HttpPost'),
    ...binding('Soap'),
    ...binding('Soap12'),
    ...binding('HttpGet'),
    ...binding('HttpPost'),
    ...tail,
  ].join('\n');
}
