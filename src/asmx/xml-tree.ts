/** A namespace-aware element tree of the server's own documents (the WSDL files), DOCTYPEs refused. */
import { SaxesParser } from 'saxes';

export interface XmlElement {
  /** Namespace URI ('' when none). */
  uri: string;
  local: string;
  /** Attributes by name as written: "prefix:local" when prefixed (xmlns declarations left out). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The namespace prefixes in scope ('' for the default namespace), to resolve QName values. */
  scope: Readonly<Record<string, string>>;
  /** The character data directly inside the element. */
  text: string;
}

export function parseXml(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('doctype', () => {
    throw new Error('a DOCTYPE is not allowed');
  });
  parser.on('opentag', (tag) => {
    const parentScope = stack.length > 0 ? stack[stack.length - 1].scope : {};
    const scope = Object.keys(tag.ns).length > 0 ? { ...parentScope, ...tag.ns } : parentScope;
    const element: XmlElement = { uri: tag.uri, local: tag.local, attributes: {}, children: [], scope, text: '' };
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix !== 'xmlns' && attribute.name !== 'xmlns')
        element.attributes[attribute.name] = attribute.value;
    }
    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('text', (value) => {
    if (stack.length > 0) stack[stack.length - 1].text += value;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(text).close();
  if (!root) throw new Error('the document has no root element');
  return root;
}

/** A QName attribute value (s:int, tns:Row) as the namespace URI and local name it stands for. */
export function resolveQName(element: XmlElement, qname: string): { uri: string; local: string } {
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  return { uri: element.scope[prefix] ?? '', local: qname.slice(colon + 1) };
}

export function childrenNamed(parent: XmlElement, uri: string, local: string): XmlElement[] {
  return parent.children.filter((child) => child.uri === uri && child.local === local);
}

export function firstChildNamed(parent: XmlElement, uri: string, local: string): XmlElement | undefined {
  return childrenNamed(parent, uri, local)[0];
}
