/**
 * The typed answers of the v2 contract (docs/v2.md) against the types the served v2 WSDL declares,
 * for `contract-check --v2`. The checker knows nothing of the project's declarations: it reads the
 * XML Schema inside the WSDL the server serves and holds each answer to it, as a generated client
 * would: a sequence's elements in order, each present as often as minOccurs/maxOccurs allow,
 * xsi:nil only where nillable, and the lexical form of the simple types (xs:int, xs:decimal, xs:date,
 * xs:dateTime, xs:boolean). Enough of XML Schema for the shapes ASMX writes: global elements,
 * named and anonymous complex types with one sequence, built-in simple types.
 */
import { children, child, isNil, resolveQName, type XmlNode } from './xml';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

const SIMPLE_TYPES: Readonly<Record<string, RegExp>> = {
  string: /[\s\S]*/,
  int: /^[+-]?\d{1,10}$/,
  long: /^[+-]?\d{1,19}$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  boolean: /^(true|false|1|0)$/,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
};

interface Particle {
  name: string;
  /** The declaring element: its type attribute resolves there, or it holds an anonymous complexType. */
  declaration: XmlNode;
  min: number;
  max: number;
  nillable: boolean;
}

export class WsdlTypes {
  private readonly elements = new Map<string, XmlNode>();
  private readonly complexTypes = new Map<string, XmlNode>();
  readonly targetNamespace: string;

  constructor(wsdl: XmlNode) {
    this.targetNamespace = wsdl.attributes.targetNamespace ?? '';
    const types = child(wsdl, WSDL_NS, 'types');
    for (const schema of types ? children(types, XSD_NS, 'schema') : []) {
      for (const element of children(schema, XSD_NS, 'element'))
        this.elements.set(element.attributes.name ?? '', element);
      for (const type of children(schema, XSD_NS, 'complexType'))
        this.complexTypes.set(type.attributes.name ?? '', type);
    }
  }

  /** Where `node` differs from the global element `name` of the schema; empty when it conforms. */
  elementProblems(node: XmlNode, name: string): string[] {
    const declaration = this.elements.get(name);
    if (!declaration) return [`the WSDL declares no element ${name}`];
    if (node.local !== name || node.uri !== this.targetNamespace)
      return [`expected the element {${this.targetNamespace}}${name}, got {${node.uri}}${node.local}`];
    return this.valueProblems(node, declaration, name, declaration.attributes.nillable === 'true');
  }

  private valueProblems(node: XmlNode, declaration: XmlNode, path: string, nillable: boolean): string[] {
    if (isNil(node)) return nillable ? [] : [`${path}: xsi:nil where the WSDL does not declare it nillable`];
    const anonymous = child(declaration, XSD_NS, 'complexType');
    if (anonymous) return this.sequenceProblems(node, anonymous, path);
    const type = resolveQName(declaration, declaration.attributes.type);
    if (!type) return [`${path}: the WSDL gives no type`];
    if (type.uri === XSD_NS) {
      const pattern = SIMPLE_TYPES[type.local];
      if (!pattern) return [`${path}: xs:${type.local} is not a type this checker knows`];
      if (node.children.length > 0) return [`${path}: elements inside an xs:${type.local}`];
      return pattern.test(node.text) ? [] : [`${path}: '${node.text.slice(0, 40)}' is not an xs:${type.local}`];
    }
    const complex = type.uri === this.targetNamespace ? this.complexTypes.get(type.local) : undefined;
    if (!complex) return [`${path}: the WSDL declares no complexType ${type.local}`];
    return this.sequenceProblems(node, complex, path);
  }

  private sequenceProblems(node: XmlNode, complexType: XmlNode, path: string): string[] {
    const sequence = child(complexType, XSD_NS, 'sequence');
    const particles: Particle[] = (sequence ? children(sequence, XSD_NS, 'element') : []).map((declaration) => ({
      name: declaration.attributes.name ?? '',
      declaration,
      min: Number(declaration.attributes.minOccurs ?? '1'),
      max:
        declaration.attributes.maxOccurs === 'unbounded' ? Infinity : Number(declaration.attributes.maxOccurs ?? '1'),
      nillable: declaration.attributes.nillable === 'true',
    }));
    const problems: string[] = [];
    let at = 0;
    for (const particle of particles) {
      let count = 0;
      while (
        at < node.children.length &&
        node.children[at].local === particle.name &&
        node.children[at].uri === this.targetNamespace
      ) {
        const item = node.children[at];
        problems.push(
          ...this.valueProblems(
            item,
            particle.declaration,
            `${path}/${particle.name}${particle.max > 1 ? `[${count}]` : ''}`,
            particle.nillable,
          ),
        );
        count++;
        at++;
      }
      if (count < particle.min) problems.push(`${path}: ${particle.name} is missing`);
      if (count > particle.max)
        problems.push(`${path}: ${particle.name} occurs ${count} times, at most ${particle.max}`);
    }
    if (at < node.children.length) problems.push(`${path}: unexpected element ${node.children[at].local}`);
    // A few are enough to say what is wrong; a list of thousands of rows would repeat them.
    return problems.slice(0, 5);
  }
}
