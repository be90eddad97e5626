/**
 * The plain documents nearly every SOAP client sends, read without saxes: an optional XML declaration,
 * elements and attributes with ASCII names, namespace declarations, text without references, and
 * nothing else. It hands the same events to the same collector as saxes would, for a document saxes
 * reads without an error, and declines everything else: a comment, a processing instruction, CDATA,
 * a DOCTYPE, an entity or character reference, a carriage return (XML turns it into a line feed), a
 * character outside ASCII and the Basic Multilingual Plane's plain letters, a Header element (its
 * blocks carry every attribute as saxes gives it), anything saxes would refuse (a bad name, an unbound
 * prefix, a repeated attribute, text outside the root, a bound exceeded), and a document longer than
 * MAX_PLAIN_CHARS. What it declines, saxes reads (envelope-reader.ts), with every check and answer as
 * before.
 *
 * Why: saxes reads a character at a time, a large share of what a small SOAP request costs
 * (docs/operations.md, "Request path"); this reads it in a few regular-expression steps.
 * src/asmx/soap/plain-envelope.test.ts compares the two on a corpus of documents and on random
 * changes of them: whatever this accepts, saxes reads to the same result.
 */
import type { XmlLimits } from './envelope-reader';

/** An element as the collector reads it: the parts of saxes's SaxesTagNS it uses. */
export interface ReadTag {
  name: string;
  local: string;
  uri: string;
  attributes: Record<string, { local: string; uri: string; value: string }>;
}

export interface TagSink {
  open(tag: ReadTag): void;
  close(): void;
  text(text: string): void;
}

const NAME = '[A-Za-z_][A-Za-z0-9._-]*';
const QNAME = `${NAME}(?::${NAME})?`;
const S = '[ \\t\\n]';
/** Characters of text and attribute values taken as they are (no references, no line ends to normalise in values). */
const PLAIN_TEXT = /^[\t\n\x20-\x25\x27-\x3B\x3D-\x7E\u00A0-\uD7FF\uE000-\uFFFD]*$/;
const PLAIN_VALUE = /^[\x20-\x25\x27-\x3B\x3D-\x7E\u00A0-\uD7FF\uE000-\uFFFD]*$/;
const DECLARATION = new RegExp(
  `<\\?xml${S}+version${S}*=${S}*(?:"1\\.0"|'1\\.0')(?:${S}+encoding${S}*=${S}*(?:"[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?(?:${S}+standalone${S}*=${S}*(?:"(?:yes|no)"|'(?:yes|no)'))?${S}*\\?>`,
  'y',
);
const START_TAG = new RegExp(`<(${QNAME})((?:${S}+${QNAME}${S}*=${S}*(?:"[^"]*"|'[^']*'))*)${S}*(/?)>`, 'y');
const ATTRIBUTE = new RegExp(`(${QNAME})${S}*=${S}*(?:"([^"]*)"|'([^']*)')`, 'g');
const END_TAG = new RegExp(`</(${QNAME})${S}*>`, 'y');
const SPACE = new RegExp(`^${S}*$`);

const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Namespace bindings in scope: prefix ('' for the default namespace) to URI. */
type Scope = Readonly<Record<string, string>>;

/**
 * The longest document read here: it is read in one go, where saxes reads in slices with a turn of the
 * event loop between them (envelope-reader.ts); a document this short holds up the loop too briefly to
 * matter.
 */
export const MAX_PLAIN_CHARS = 64 * 1024;

/** Reads `text` into `sink` and answers true, or answers false (having maybe sent some events) for saxes to read it. */
export function readPlainDocument(text: string, sink: TagSink, limits: XmlLimits): boolean {
  if (text.length > MAX_PLAIN_CHARS || text.includes('\r')) return false;
  let at = 0;
  if (text.startsWith('<?xml')) {
    DECLARATION.lastIndex = 0;
    if (!DECLARATION.test(text)) return false;
    at = DECLARATION.lastIndex;
  }
  const open: { name: string; scope: Scope }[] = [];
  let nodes = 0;
  let rootDone = false;
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    const end = lt < 0 ? text.length : lt;
    if (end > at) {
      const between = text.slice(at, end);
      if (open.length === 0) {
        // Outside the root element only white space may stand.
        if (!SPACE.test(between)) return false;
      } else {
        if (!PLAIN_TEXT.test(between) || between.includes(']]>')) return false;
        sink.text(between);
      }
      at = end;
      if (lt < 0) break;
    }
    const next = text.charCodeAt(at + 1);
    if (next === 0x2f /* / */) {
      END_TAG.lastIndex = at;
      const match = END_TAG.exec(text);
      const element = open.pop();
      if (match === null || element === undefined || match[1] !== element.name) return false;
      sink.close();
      at = END_TAG.lastIndex;
      if (open.length === 0) rootDone = true;
      continue;
    }
    if (rootDone) return false;
    START_TAG.lastIndex = at;
    const match = START_TAG.exec(text);
    if (match === null) return false;
    const [, name, attributeText, selfClosing] = match;
    const parent = open.at(-1)?.scope;
    const read = readAttributes(attributeText, parent ?? {});
    if (read === undefined) return false;
    nodes += 1 + read.count;
    if (open.length + 1 > limits.maxDepth || nodes > limits.maxNodes) return false;
    const element = qualified(name, read.scope, true);
    if (element === undefined) return false;
    // The Header's blocks keep every attribute as saxes gives it, namespace declarations included.
    if (open.length === 1 && element.local === 'Header') return false;
    const attributes: ReadTag['attributes'] = {};
    for (const [attributeName, value] of read.attributes) {
      const attribute = qualified(attributeName, read.scope, false);
      if (attribute === undefined) return false;
      attributes[attributeName] = { local: attribute.local, uri: attribute.uri, value };
    }
    if (repeatsExpandedName(Object.values(attributes))) return false;
    sink.open({ name, local: element.local, uri: element.uri, attributes });
    at = START_TAG.lastIndex;
    if (selfClosing === '/') {
      sink.close();
      if (open.length === 0) rootDone = true;
    } else {
      open.push({ name, scope: read.scope });
    }
  }
  return rootDone && open.length === 0;
}

/**
 * The attributes of a start tag (namespace declarations apart) and the scope they make; undefined for
 * anything saxes would refuse or that this does not read: a repeated name, a value with a reference,
 * `<`, a tab or a line feed (normalised in values), a declaration of `xml` or `xmlns`, of a prefix to
 * an empty URI, of either reserved URI, or of a URI with white space around it (saxes trims it).
 */
function readAttributes(text: string, parent: Scope): { attributes: [string, string][]; scope: Scope; count: number } | undefined {
  if (text === '') return { attributes: [], scope: parent, count: 0 };
  const attributes: [string, string][] = [];
  const seen = new Set<string>();
  let scope: Record<string, string> | undefined;
  let count = 0;
  for (const match of text.matchAll(ATTRIBUTE)) {
    const [, name, double, single] = match;
    const value = double ?? single;
    if (seen.has(name) || !PLAIN_VALUE.test(value)) return undefined;
    seen.add(name);
    count += 1;
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      const prefix = name === 'xmlns' ? '' : name.slice(6);
      if (value.trim() !== value || prefix === 'xml' || prefix === 'xmlns' || (prefix !== '' && value === '') || value === XMLNS_NS || value === XML_NS) return undefined;
      scope ??= { ...parent };
      scope[prefix] = value;
    }
    attributes.push([name, value]);
  }
  return { attributes, scope: scope ?? parent, count };
}

/**
 * The local name and namespace URI of an element's or attribute's name in `scope`: an unprefixed
 * element is in the default namespace, an unprefixed attribute in none, a namespace declaration in
 * XMLNS_NS as saxes gives it; undefined for an unbound prefix or the reserved `xml` and `xmlns`
 * anywhere else.
 */
function qualified(name: string, scope: Scope, isElement: boolean): { local: string; uri: string } | undefined {
  const colon = name.indexOf(':');
  if (colon < 0) {
    if (!isElement && name === 'xmlns') return { local: 'xmlns', uri: XMLNS_NS };
    return { local: name, uri: isElement ? (scope[''] ?? '') : '' };
  }
  const prefix = name.slice(0, colon);
  const local = name.slice(colon + 1);
  if (!isElement && prefix === 'xmlns') return { local, uri: XMLNS_NS };
  if (prefix === 'xml' || prefix === 'xmlns') return undefined;
  const uri = scope[prefix];
  if (uri === undefined || uri === '') return undefined;
  return { local, uri };
}

/** Two attributes with the same local name in the same namespace (under different prefixes). */
function repeatsExpandedName(attributes: readonly { local: string; uri: string }[]): boolean {
  const names = new Set<string>();
  for (const { local, uri } of attributes) {
    if (uri === '') continue;
    const key = `${uri}\n${local}`;
    if (names.has(key)) return true;
    names.add(key);
  }
  return false;
}
