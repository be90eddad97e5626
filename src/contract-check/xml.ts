/**
 * What the checks read in the element tree of an answer (src/asmx/xml-tree.ts: namespace-aware,
 * DOCTYPEs refused, element text and in-scope prefixes kept): children by name, and QName attribute
 * values (element="tns:op", binding="q1:XSoap") resolved to namespaces whatever prefixes a server uses.
 */
import type { XmlElement } from '../asmx/xml-tree';

export { parseXml as parseXmlDocument } from '../asmx/xml-tree';
export type XmlNode = XmlElement;

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
  return Object.entries(node.attributes).some(
    ([name, value]) =>
      (value === 'true' || value === '1') &&
      name.endsWith(':nil') &&
      node.scope[name.slice(0, -':nil'.length)] === XSI_NS,
  );
}
