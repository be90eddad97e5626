/**
 * A namespace-aware element tree of an answer (saxes), with what the checks need beyond
 * src/asmx/xml-tree.ts: the text of elements and the in-scope prefixes, so that QName attribute
 * values (element="tns:op", binding="q1:XSoap") resolve to namespaces whatever prefixes a server uses.
 * DOCTYPEs are refused, as everywhere in this project.
 */
import { SaxesParser } from 'saxes';

export interface XmlNode {
  uri: string;
  local: string;
  /** Unprefixed attributes and prefixed ones as "prefix:local" (xmlns declarations left out). */
  attributes: Record<string, string>;
  /** prefix ('' for the default namespace) -> namespace URI, as in scope on this element. */
  scope: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export function parseXmlDocument(text: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  parser.on('doctype', () => {
    throw new Error('a DOCTYPE is not allowed');
  });
  parser.on('opentag', (tag) => {
    const scope = { ...(stack.length > 0 ? stack[stack.length - 1].scope : {}), ...tag.ns };
    const node: XmlNode = { uri: tag.uri, local: tag.local, attributes: {}, scope, children: [], text: '' };
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      node.attributes[attribute.name] = attribute.value;
    }
    if (stack.length > 0) stack[stack.length - 1].children.push(node);
    else root = node;
    stack.push(node);
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

export function children(parent: XmlNode, uri: string, local?: string): XmlNode[] {
  return parent.children.filter((child) => child.uri === uri && (local === undefined || child.local === local));
}

export function child(parent: XmlNode, uri: string, local: string): XmlNode | undefined {
  return children(parent, uri, local)[0];
}

/** A QName attribute value as {uri, local}, its prefix resolved on the element that carries it. */
export function resolveQName(node: XmlNode, value: string | undefined): { uri: string; local: string } | undefined {
  if (value === undefined) return undefined;
  const colon = value.indexOf(':');
  const prefix = colon < 0 ? '' : value.slice(0, colon);
  const local = colon < 0 ? value : value.slice(colon + 1);
  const uri = node.scope[prefix];
  return uri === undefined ? undefined : { uri, local };
}

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** Whether an element carries xsi:nil="true" (or "1"), whatever prefix the document gives xsi. */
export function isNil(node: XmlNode): boolean {
  return Object.entries(node.attributes).some(([name, value]) => (value === 'true' || value === '1') && name.endsWith(':nil') && node.scope[name.slice(0, -':nil'.length)] === XSI_NS);
}
