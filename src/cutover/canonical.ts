/**
 * Answers as their binding means them, for comparing two servers' answers to one request
 * (docs/cutover.md, "What is compared"): an XML document as a tree of namespace-qualified elements,
 * whatever its prefixes, attribute order, whitespace between elements or XML declaration; JSON by
 * value. Each yields the leaves of the answer by path: `Data[3].Amount` for JSON and local element
 * names for XML (`getPCNListResult/Data/PCNCheque[3]/Amount`), so that two answers differ exactly
 * where their leaves do.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';

/** Path -> value of every leaf of an answer (a string for XML, the JSON value's text for JSON). */
export type Leaves = Map<string, string>;

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

interface Element {
  name: string;
  uri: string;
  attributes: [string, string][];
  children: Element[];
  text: string;
  /** In-scope prefixes, to resolve QName values (fault codes, xsi:type). */
  scope: Record<string, string>;
}

/** The leaves of an XML document; throws when it is not well formed or holds a DOCTYPE. */
export function xmlLeaves(text: string): Leaves {
  const root = parseXml(text);
  const leaves: Leaves = new Map();
  // A SOAP envelope's paths start at what its Body holds (getPCNListResponse/..., Fault/...).
  if (root.name !== 'Envelope') {
    addElement(leaves, root, root.name, '');
    return leaves;
  }
  leaves.set('(envelope)', root.uri);
  for (const part of root.children) {
    if (part.name === 'Body') addChildren(leaves, part, '');
    else addElement(leaves, part, part.name, root.uri);
  }
  return leaves;
}

function parseXml(text: string): Element {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Element[] = [];
  let root: Element | undefined;
  parser.on('doctype', () => {
    throw new Error('a DOCTYPE is not allowed');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const scope = { ...(stack.length > 0 ? stack[stack.length - 1].scope : {}), ...tag.ns };
    const element: Element = { name: tag.local, uri: tag.uri, attributes: [], children: [], text: '', scope };
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      const name = attribute.uri === '' ? attribute.local : `{${attribute.uri}}${attribute.local}`;
      const value =
        attribute.uri === XSI && attribute.local === 'type' ? qualified(attribute.value, scope) : attribute.value;
      element.attributes.push([name, value]);
    }
    element.attributes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('text', (value) => {
    if (stack.length > 0) stack[stack.length - 1].text += value;
  });
  parser.on('cdata', (value) => {
    if (stack.length > 0) stack[stack.length - 1].text += value;
  });
  parser.on('closetag', () => {
    const element = stack.pop()!;
    // A fault code is a QName: the same code under another prefix is the same code.
    if ((element.name === 'faultcode' || element.name === 'Value') && element.children.length === 0)
      element.text = qualified(element.text.trim(), element.scope);
  });
  parser.write(text).close();
  if (root === undefined) throw new Error('the document has no root element');
  return root;
}

/** `prefix:local` with its prefix in scope as `{namespace}local`; any other text as it is. */
function qualified(value: string, scope: Record<string, string>): string {
  const colon = value.indexOf(':');
  const uri = colon === -1 ? undefined : scope[value.slice(0, colon)];
  return uri === undefined ? value : `{${uri}}${value.slice(colon + 1)}`;
}

/** An element's namespace is a leaf `(namespace)` where it is not its parent's. */
function addElement(leaves: Leaves, element: Element, path: string, parentUri: string): void {
  if (element.uri !== parentUri) leaves.set(`${path}/(namespace)`, element.uri);
  for (const [name, value] of element.attributes) leaves.set(`${path}/@${name}`, value);
  if (element.children.length === 0) {
    leaves.set(path, element.text);
    return;
  }
  // Text beside child elements is whitespace between them unless it holds more.
  if (element.text.trim() !== '') leaves.set(`${path}/text()`, element.text.trim());
  addChildren(leaves, element, `${path}/`);
}

/** Each child under `prefix` + its name, indexed from 1 where the name repeats among its siblings. */
function addChildren(leaves: Leaves, element: Element, prefix: string): void {
  const seen = new Map<string, number>();
  const repeated = new Set<string>();
  for (const child of element.children) {
    if (seen.has(child.name)) repeated.add(child.name);
    seen.set(child.name, 0);
  }
  for (const child of element.children) {
    const index = seen.get(child.name)! + 1;
    seen.set(child.name, index);
    addElement(
      leaves,
      child,
      repeated.has(child.name) ? `${prefix}${child.name}[${index}]` : `${prefix}${child.name}`,
      element.uri,
    );
  }
}

/** The leaves of a JSON document; throws when it is not JSON. */
export function jsonLeaves(text: string): Leaves {
  const leaves: Leaves = new Map();
  addJson(leaves, JSON.parse(text) as unknown, '');
  return leaves;
}

function addJson(leaves: Leaves, value: unknown, path: string): void {
  if (Array.isArray(value)) {
    if (value.length === 0) leaves.set(path, '[]');
    value.forEach((item, index) => addJson(leaves, item, `${path}[${index}]`));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) leaves.set(path, '{}');
    for (const [name, member] of entries) addJson(leaves, member, path === '' ? name : `${path}.${name}`);
  } else {
    // Numbers by value: 2482.620 and 2482.62 are one number once parsed.
    leaves.set(path, JSON.stringify(value));
  }
}

/** A path with its indices as `*`: the name a pattern (`--ignore`, noisy fields) matches. */
export function pattern(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}
