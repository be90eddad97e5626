/**
 * Reads the few facts the SOAP binding needs from a request, with a streaming parser that never
 * resolves an entity and builds no tree; depth and node counts are bounded as it meets them, and the
 * text goes in slices a turn of the event loop apart (docs/operations.md, "Input limits").
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { ENVELOPE_SLICE_CHARS } from '../tunables';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** Not well-formed XML, a DOCTYPE, or over the bounds: the legacy stack answers 400. */
export class MalformedXmlError extends Error {
  constructor(detail: string) {
    super(`Malformed XML: ${detail}`);
    this.name = 'MalformedXmlError';
  }
}

export interface XmlLimits {
  /** Deepest element nesting (the root element is depth 1). */
  maxDepth: number;
  /** Most elements and attributes (namespace declarations included), counted together. */
  maxNodes: number;
}

export interface QName {
  /** As written, prefix included (what the MustUnderstand fault names). */
  name: string;
  local: string;
  ns: string;
}

export interface HeaderBlock extends QName {
  attributes: readonly { local: string; ns: string; value: string }[];
}

export interface OperationElement extends QName {
  /** Child elements as (local name, text content), in document order; xsi:nil children left out. */
  values: [string, string][];
}

export interface ReadDocument {
  root: QName;
  /** Children of the root element (the Envelope's Header and Body when it is one). */
  rootChildren: QName[];
  headerBlocks: HeaderBlock[];
  /** The first element inside the envelope's Body, if any. */
  operation?: OperationElement;
}

/**
 * onRoot is called as soon as the root opens: ASMX picks the SOAP version from it even when the
 * document turns out malformed (docs/contract.md, recorded: err-soap12-malformed-xml-11ns).
 * `untilOperation`: stop once the Body's first element opens (its values unread), for a reader that
 * only needs to know which operation a document calls (src/classifier/index.ts).
 */
export async function readDocument(
  text: string,
  envelopeNamespaces: readonly string[],
  limits: XmlLimits,
  onRoot?: (root: QName) => void,
  untilOperation = false,
): Promise<ReadDocument> {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parser = idleParsers.pop() ?? new ReusableParser();
  const collector = new Collector(envelopeNamespaces, limits, onRoot, untilOperation);
  parser.reading = collector;
  try {
    for (let offset = 0; offset < source.length; offset += ENVELOPE_SLICE_CHARS) {
      if (offset > 0) await nextTurn();
      // saxes carries a surrogate pair or a CR LF split between two slices over to the next one.
      parser.saxes.write(source.slice(offset, offset + ENVELOPE_SLICE_CHARS));
    }
  } catch (error) {
    // The parser is left mid-document and is not reused.
    if (error instanceof OperationReached) return collector.result();
    throw error;
  }
  // close() checks the end of the document and leaves the parser as new (saxes resets it). A parser
  // that threw is left mid-document and never reused.
  parser.saxes.close();
  parser.reading = undefined;
  if (idleParsers.length < MAX_IDLE_PARSERS) idleParsers.push(parser);
  return collector.result();
}

/** A saxes parser with its handlers registered once: building one is a large part of reading a small envelope. */
class ReusableParser {
  readonly saxes = new SaxesParser({ xmlns: true, position: false });
  /** The document being read: the handlers hand their events to it. */
  reading?: Collector;

  constructor() {
    const parser = this.saxes;
    parser.on('doctype', () => {
      throw new MalformedXmlError('a DOCTYPE is not allowed');
    });
    // XML 1.1 would admit C0 controls as character references (&#1;); .NET's reader refuses 1.1 too.
    parser.on('xmldecl', (declaration) => {
      if (declaration.version !== undefined && declaration.version !== '1.0')
        throw new MalformedXmlError(`XML version ${declaration.version}`);
    });
    // saxes keeps one handler per event: each event below is registered once.
    parser.on('opentagstart', () => this.current().openStart());
    parser.on('attribute', () => this.current().count());
    parser.on('opentag', (tag) => this.current().open(tag));
    parser.on('closetag', () => this.current().close());
    parser.on('text', (t) => this.current().text(t));
    parser.on('cdata', (t) => this.current().text(t));
    // Thrown out of write(): stops at the first error. Errors thrown by onRoot pass through unchanged.
    parser.on('error', (error) => {
      throw new MalformedXmlError(error.message);
    });
  }

  private current(): Collector {
    if (!this.reading) throw new Error('a parser event outside a document');
    return this.reading;
  }
}

/** Thrown out of the parser when the operation element opens and nothing after it is wanted. */
class OperationReached extends Error {}

/** Parsers between documents (one per document being read at once, up to this many kept). */
const idleParsers: ReusableParser[] = [];
const MAX_IDLE_PARSERS = 16;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function qname(tag: SaxesTagNS): QName {
  return { name: tag.name, local: tag.local, ns: tag.uri };
}

/** Walks and bounds the events. Depths: 1 root, 2 Header/Body, 3 header blocks and the operation, 4 its values. */
class Collector {
  private depth = 0;
  private nodes = 0;
  private root?: QName;
  private readonly rootChildren: QName[] = [];
  private readonly headerBlocks: HeaderBlock[] = [];
  private operation?: OperationElement;
  private section: 'header' | 'body' | 'other' = 'other';
  private inOperation = false;
  private value?: { name: string; text: string; nil: boolean };

  constructor(
    private readonly envelopeNamespaces: readonly string[],
    private readonly limits: XmlLimits,
    private readonly onRoot?: (root: QName) => void,
    private readonly untilOperation = false,
  ) {}

  /** Counts an element as soon as its name is read, before saxes resolves its namespace: over a bound costs no more than it. */
  openStart(): void {
    if (this.depth + 1 > this.limits.maxDepth)
      throw new MalformedXmlError(`elements nested deeper than ${this.limits.maxDepth} levels`);
    this.count();
  }

  count(): void {
    this.nodes += 1;
    if (this.nodes > this.limits.maxNodes)
      throw new MalformedXmlError(`more than ${this.limits.maxNodes} elements and attributes`);
  }

  open(tag: SaxesTagNS): void {
    this.depth += 1;
    if (this.depth === 1) this.openRoot(tag);
    else if (this.depth === 2) this.openEnvelopeChild(tag);
    else if (this.depth === 3) this.openSectionChild(tag);
    else if (this.depth === 4 && this.inOperation) {
      const nil = Object.values(tag.attributes).some(
        (a) => a.uri === XSI_NS && a.local === 'nil' && ['true', '1'].includes(a.value.trim()),
      );
      this.value = { name: tag.local, text: '', nil };
    }
  }

  close(): void {
    if (this.depth === 4 && this.value) {
      if (!this.value.nil) this.operation?.values.push([this.value.name, this.value.text]);
      this.value = undefined;
    } else if (this.depth === 3) {
      this.inOperation = false;
    } else if (this.depth === 2) {
      this.section = 'other';
    }
    this.depth -= 1;
  }

  text(text: string): void {
    if (this.value) this.value.text += text;
  }

  result(): ReadDocument {
    if (!this.root) throw new MalformedXmlError('no root element');
    return {
      root: this.root,
      rootChildren: this.rootChildren,
      headerBlocks: this.headerBlocks,
      operation: this.operation,
    };
  }

  private openRoot(tag: SaxesTagNS): void {
    this.root = qname(tag);
    this.onRoot?.(this.root);
  }

  private openEnvelopeChild(tag: SaxesTagNS): void {
    const child = qname(tag);
    this.rootChildren.push(child);
    const inEnvelopeNs = this.envelopeNamespaces.includes(child.ns);
    this.section =
      inEnvelopeNs && child.local === 'Header' ? 'header' : inEnvelopeNs && child.local === 'Body' ? 'body' : 'other';
  }

  private openSectionChild(tag: SaxesTagNS): void {
    if (this.section === 'header') {
      const attributes = Object.values(tag.attributes).map((a) => ({ local: a.local, ns: a.uri, value: a.value }));
      this.headerBlocks.push({ name: tag.name, local: tag.local, ns: tag.uri, attributes });
    } else if (this.section === 'body' && !this.operation) {
      this.operation = { name: tag.name, local: tag.local, ns: tag.uri, values: [] };
      this.inOperation = true;
      if (this.untilOperation) throw new OperationReached();
    }
  }
}
