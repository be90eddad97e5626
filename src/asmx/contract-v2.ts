/**
 * The v2 WSDL's types against the operations' result declarations (docs/v2.md): the hand-written
 * wsdl/v2 files must declare, for every operation, exactly the typed result the v2 bindings write
 * (typed-xml.ts) from what the operation declares it returns (docs/results.md). The server refuses to
 * start on any difference (app.ts, with the legacy check of contract.ts), so a field added to an
 * operation but not to the WSDL, a type changed on one side, or a nullable field declared otherwise,
 * never reaches a client.
 *
 * What is compared, by namespace URI and local name (not by prefix):
 * - `<op>Response` holds one element `<op>Result` of type tns:<Op>Result (HelloWorld: s:string);
 * - the complex type <Op>Result: Message, then Count and Data (tns:ArrayOf<Row>) or Data (tns:<Type>),
 *   then Totals and NextPageToken where the declaration has them; a global element <Op>Result (the
 *   HTTP GET/POST answer's root);
 * - every record type: its fields in order, each with its XML Schema type and nillable exactly when
 *   the field can be null; ArrayOf<Row>: a repeated element <Row>;
 * - the ServiceError fault: its type, its element, and a fault of every SOAP operation.
 */
import { isScalar, type FieldType, type RecordType, type ResultType, type ScalarKind } from '../operations/results';
import type { Service } from '../services/types';
import type { ServiceDescription } from './contract';
import { SERVICE_ERROR_TYPE, v2ResultTypeName, XSD_TYPE } from './typed-xml';
import { childrenNamed, firstChildNamed, resolveQName, type XmlElement } from './xml-tree';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

/** One element of a sequence as the v2 contract declares it. */
interface Particle {
  name: string;
  /** The type's namespace URI and local name. */
  type: { uri: string; local: string };
  nillable: boolean;
  /** true: maxOccurs="unbounded" (the item of an ArrayOf type). */
  repeated: boolean;
}

/** Every difference between the v2 WSDL's types and the operations' declarations; empty when they agree. */
export function typedContractDifferences(description: ServiceDescription, service: Pick<Service, 'operations'>): string[] {
  const root = description.document;
  const tns = description.targetNamespace;
  const schema = new SchemaIndex(root);
  const differences: string[] = [];
  const expectedTypes = new Map<string, Particle[]>();
  const xsd = (local: string) => ({ uri: XSD_NS, local });
  const own = (local: string) => ({ uri: tns, local });
  const scalar = (name: string, kind: ScalarKind, nillable = false): Particle => ({ name, type: xsd(XSD_TYPE[kind]), nillable, repeated: false });
  const named = (name: string, local: string): Particle => ({ name, type: own(local), nillable: false, repeated: false });

  const recordType = (type: RecordType): void => {
    if (expectedTypes.has(type.name)) return;
    expectedTypes.set(type.name, []);
    expectedTypes.set(type.name, Object.entries(type.fields).map(([name, field]) => particle(name, field)));
  };
  const arrayType = (type: RecordType): string => {
    recordType(type);
    expectedTypes.set(`ArrayOf${type.name}`, [{ name: type.name, type: own(type.name), nillable: false, repeated: true }]);
    return `ArrayOf${type.name}`;
  };
  const particle = (name: string, field: FieldType): Particle => {
    if (isScalar(field)) return scalar(name, field.kind, field.nullable);
    if ('list' in field) return named(name, arrayType(field.list));
    recordType(field.record);
    return named(name, field.record.name);
  };
  const resultParticles = (returns: Exclude<ResultType, { kind: 'text' }>): Particle[] => {
    const list = [scalar('Message', 'string')];
    if (returns.kind === 'rows') {
      list.push(scalar('Count', 'integer'), named('Data', arrayType(returns.row)));
      if (returns.totals) {
        recordType(returns.totals);
        list.push(named('Totals', returns.totals.name));
      }
    } else {
      recordType(returns.type);
      list.push(named('Data', returns.type.name));
    }
    if (returns.pageable) list.push(scalar('NextPageToken', 'string', true));
    return list;
  };

  for (const op of service.operations.values()) {
    const response = schema.elementSequence(`${op.name}Response`);
    if (op.returns.kind === 'text') {
      differences.push(...compare(`element ${op.name}Response`, response, [scalar(`${op.name}Result`, 'string')]));
      continue;
    }
    const resultType = v2ResultTypeName(op.name);
    differences.push(...compare(`element ${op.name}Response`, response, [named(`${op.name}Result`, resultType)]));
    expectedTypes.set(resultType, resultParticles(op.returns));
    const global = schema.element(resultType);
    if (!global) differences.push(`the schema has no element ${resultType} (the HTTP GET/POST answer of ${op.name})`);
    else if (!sameName(schema.typeOf(global), own(resultType))) differences.push(`element ${resultType} is not of type ${resultType}`);
  }
  for (const [name, particles] of expectedTypes) differences.push(...compare(`complexType ${name}`, schema.complexTypeSequence(name), particles));
  if (service.operations.size > 0 && [...service.operations.values()].some((op) => op.returns.kind !== 'text')) {
    differences.push(...faultDifferences(root, schema, tns, [...service.operations.keys()]));
  }
  return differences;
}

/** The ServiceError fault type and element, and a ServiceError fault on every operation of the SOAP port type. */
function faultDifferences(root: XmlElement, schema: SchemaIndex, tns: string, operations: string[]): string[] {
  const expected = Object.entries(SERVICE_ERROR_TYPE.fields).map(([name, field]): Particle => {
    if (!isScalar(field)) throw new Error('the ServiceError type holds text fields only');
    return { name, type: { uri: XSD_NS, local: XSD_TYPE[field.kind] }, nillable: field.nullable, repeated: false };
  });
  const differences = compare('complexType ServiceError', schema.complexTypeSequence('ServiceError'), expected);
  const element = schema.element('ServiceError');
  if (!element || !sameName(schema.typeOf(element), { uri: tns, local: 'ServiceError' })) differences.push('the schema has no element ServiceError of type ServiceError');
  const portType = childrenNamed(root, WSDL_NS, 'portType').find((p) => p.attributes.name?.endsWith('Soap'));
  for (const name of operations) {
    const op = portType && childrenNamed(portType, WSDL_NS, 'operation').find((o) => o.attributes.name === name);
    if (!op || !childrenNamed(op, WSDL_NS, 'fault').some((f) => f.attributes.name === 'ServiceError')) differences.push(`operation ${name} declares no ServiceError fault`);
  }
  return differences;
}

function compare(what: string, actual: Particle[] | undefined, expected: Particle[]): string[] {
  if (actual === undefined) return [`the schema has no ${what}`];
  const describe = (p: Particle) => `${p.name}: ${p.type.local}${p.nillable ? ' (nillable)' : ''}${p.repeated ? ' (repeated)' : ''}${p.type.uri === XSD_NS ? '' : ` in ${p.type.uri}`}`;
  const want = expected.map(describe);
  const have = actual.map(describe);
  const differences: string[] = [];
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    if (want[i] === have[i]) continue;
    differences.push(`${what}, element ${i + 1}: the WSDL declares ${have[i] ?? 'nothing'}, the operations answer ${want[i] ?? 'nothing'}`);
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
      for (const element of childrenNamed(schema, XSD_NS, 'element')) this.elements.set(element.attributes.name ?? '', element);
      for (const type of childrenNamed(schema, XSD_NS, 'complexType')) this.complexTypes.set(type.attributes.name ?? '', type);
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
