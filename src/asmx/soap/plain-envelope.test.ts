/**
 * The plain-document reader (plain-envelope.ts) against saxes: whatever it accepts, saxes reads to
 * the same result, and readDocument answers every document (accepted, declined, malformed) exactly as
 * saxes alone does: on a corpus of envelopes as clients send them, of documents it must leave to
 * saxes, of malformed ones, and on thousands of random changes of them, under the default bounds and
 * under tight ones.
 */
import { readDocument, readWithSaxes, type ReadDocument, type XmlLimits } from './envelope-reader';
import { MAX_PLAIN_CHARS, readPlainDocument } from './plain-envelope';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const ENVELOPES = [SOAP11, SOAP12];
const DEFAULT_LIMITS: XmlLimits = { maxDepth: 64, maxNodes: 10000 };

const envelope = (ns: string, body: string, decl = '<?xml version="1.0" encoding="utf-8"?>', extra = '') =>
  `${decl}<soap:Envelope xmlns:soap="${ns}"${extra}><soap:Body>${body}</soap:Body></soap:Envelope>`;

/** Documents the plain reader reads itself. */
const PLAIN = [
  envelope(SOAP11, '<HelloWorld xmlns="http://tempuri.org/" />'),
  envelope(SOAP11, '<getPCNList xmlns="http://tempuri.org/"><SalesOfficer>SO0001</SalesOfficer><Customer></Customer><PaymentType/></getPCNList>'),
  envelope(SOAP12, '<getPCNList xmlns="http://tempuri.org/"><SalesOfficer>so0001</SalesOfficer></getPCNList>'),
  envelope(SOAP12, '<t:Op xmlns:t="http://tempuri.org/"><t:A>1</t:A><B xsi:nil="true"/><C xsi:nil="false">x</C></t:Op>', "<?xml version='1.0'?>", ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"'),
  envelope(SOAP11, '\n  <Op xmlns="http://tempuri.org/">\n    <Name>Zoë — 中文 (none)</Name>\n    <Text>a > b; "quoted" \'single\' ]] ></Text>\n  </Op>\n', '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A xmlns="">no namespace</A><B xmlns="urn:other">other</B></Op>', ''),
  `<Envelope xmlns="${SOAP11}"><Body><Op xmlns="http://tempuri.org/"><A>1</A></Op></Body></Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"/>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>  \n`,
  `<x:Envelope xmlns:x="urn:not-soap"><x:Body><Op>1</Op></x:Body></x:Envelope>`,
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A   a = "1"  b=\'2\'>v</A ><Deep><Er><Est>t</Est></Er></Deep></Op>'),
  envelope(SOAP11, '<First xmlns="http://tempuri.org/"><A>1</A></First><Second><B>2</B></Second>'),
  // A root the caller refuses as soon as it opens (onRoot throws).
  '<Refused xmlns="urn:x"><A>1</A></Refused>',
];

/** Documents it leaves to saxes, well-formed or not. */
const DECLINED = [
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A>&amp;</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A>&#65;</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A><![CDATA[x<y]]></A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><!-- note --><A>1</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><?pi data?><A>1</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/">\r\n<A>line\r\nend</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A>𝄞 astral</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A x="tab\there">1</A></Op>'),
  envelope(SOAP11, '<Op xmlns="http://tempuri.org/"><A xml:lang="en">1</A></Op>'),
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Header><h:Auth xmlns:h="urn:h" soap:mustUnderstand="1">k</h:Auth></soap:Header><soap:Body><Op/></soap:Body></soap:Envelope>`,
  `<!DOCTYPE soap:Envelope [<!ENTITY e "x">]><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`,
  `<?xml version="1.1"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`,
  `<?xml-stylesheet href="a"?><soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`,
  // Malformed: saxes refuses them.
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope><second/>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>trailing`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><p:Op/></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><Op a="1" a="2"/></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}" xmlns:a="urn:x" xmlns:b="urn:x"><soap:Body><Op a:n="1" b:n="2"/></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><Op xmlns:p=""/></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><xmlns:Op/></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><Op a="<"/></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><Op>]]></Op></soap:Body></soap:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><Op>\u0001</Op></soap:Body></soap:Envelope>`,
  ` <?xml version="1.0"?><soap:Envelope xmlns:soap="${SOAP11}"/>`,
  '<Refused xmlns="urn:x"><A>1</Refused>',
  `<?xml version="1.0"?>`,
  '',
  'not xml at all',
];

type Outcome = { ok: true; document: ReadDocument; roots: string[] } | { ok: false; error: string; roots: string[] };

/** What reading gives: the document, or the error's kind and text; and the roots onRoot saw. */
async function outcome(read: typeof readDocument, text: string, limits: XmlLimits): Promise<Outcome> {
  const roots: string[] = [];
  const onRoot = (root: { name: string; ns: string }) => {
    roots.push(`${root.ns} ${root.name}`);
    if (root.name.endsWith('Refused')) throw new Error('refused by onRoot');
  };
  try {
    return { ok: true, document: await read(text, ENVELOPES, limits, onRoot), roots };
  } catch (error) {
    return { ok: false, error: `${(error as Error).name}: ${(error as Error).message}`, roots };
  }
}

function plainAccepts(text: string, limits: XmlLimits = DEFAULT_LIMITS): boolean {
  return readPlainDocument(text, { open: () => undefined, close: () => undefined, text: () => undefined }, limits);
}

/** A small deterministic generator (mulberry32), so a failure names its seed and comes back. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['<', '>', '/', '"', "'", '=', ':', ' ', '\n', '\t', '\r', '&', 'a', 'x', '?', '!', '-', ']', 'é', '\u0001', 'xmlns', 'xmlns:p="urn:p"', ' p:a="1"', '<A>', '</A>', '<B/>', 'soap:', ' xsi:nil="true"', '\uFFFE', '\uD834'];

function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * (text.length + 1));
  switch (Math.floor(next() * 4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)] + text.slice(at);
    case 2: {
      const length = 1 + Math.floor(next() * 12);
      return text.slice(0, at) + text.slice(at, at + length) + text.slice(at);
    }
    default: {
      const to = at + 1 + Math.floor(next() * 20);
      return text.slice(0, at) + text.slice(to);
    }
  }
}

describe('the plain-document reader', () => {
  it('reads the envelopes clients send itself', () => {
    for (const text of PLAIN) expect([text, plainAccepts(text)]).toEqual([text, true]);
  });

  it('leaves references, CDATA, comments, instructions, carriage returns, astral characters, Header blocks and everything malformed to saxes', () => {
    for (const text of DECLINED) expect([text, plainAccepts(text)]).toEqual([text, false]);
  });

  it('leaves a document longer than MAX_PLAIN_CHARS to saxes, which reads it in slices', async () => {
    const long = envelope(SOAP11, `<Op xmlns="http://tempuri.org/"><A>${'x'.repeat(MAX_PLAIN_CHARS)}</A></Op>`);
    expect(plainAccepts(long)).toBe(false);
    const read = await outcome(readDocument, long, DEFAULT_LIMITS);
    expect(read.ok && read.document.operation?.values).toEqual([['A', 'x'.repeat(MAX_PLAIN_CHARS)]]);
    const fits = envelope(SOAP11, `<Op xmlns="http://tempuri.org/"><A>${'x'.repeat(MAX_PLAIN_CHARS - 200)}</A></Op>`);
    expect(plainAccepts(fits)).toBe(true);
  });

  it('leaves a document over the depth or node bound to saxes, which refuses it', async () => {
    const text = PLAIN[1];
    expect(plainAccepts(text, { maxDepth: 4, maxNodes: 10000 })).toBe(true);
    expect(plainAccepts(text, { maxDepth: 3, maxNodes: 10000 })).toBe(false);
    // Six elements and two namespace declarations.
    const limits = { maxDepth: 64, maxNodes: 7 };
    expect(plainAccepts(text, { maxDepth: 64, maxNodes: 8 })).toBe(true);
    expect((await outcome(readWithSaxes, text, { maxDepth: 64, maxNodes: 8 })).ok).toBe(true);
    expect(plainAccepts(text, limits)).toBe(false);
    expect(await outcome(readDocument, text, limits)).toEqual(await outcome(readWithSaxes, text, limits));
    expect((await outcome(readDocument, text, limits)).ok).toBe(false);
  });

  it('gives readDocument the answer of saxes alone for every document of the corpus', async () => {
    for (const limits of [DEFAULT_LIMITS, { maxDepth: 4, maxNodes: 12 }, { maxDepth: 5, maxNodes: 9 }]) {
      for (const text of [...PLAIN, ...DECLINED]) {
        expect([text, await outcome(readDocument, text, limits)]).toEqual([text, await outcome(readWithSaxes, text, limits)]);
      }
    }
  });

  it('gives readDocument the answer of saxes alone for thousands of random changes of the corpus', async () => {
    const seed = 20261126;
    const next = random(seed);
    let accepted = 0;
    let refused = 0;
    for (let round = 0; round < 250; round++) {
      for (const original of [...PLAIN, ...DECLINED.slice(0, 9)]) {
        let text = original;
        const changes = 1 + Math.floor(next() * 3);
        for (let c = 0; c < changes; c++) text = mutate(text, next);
        const limits = next() < 0.8 ? DEFAULT_LIMITS : { maxDepth: 3 + Math.floor(next() * 3), maxNodes: 6 + Math.floor(next() * 10) };
        const mine = await outcome(readDocument, text, limits);
        const theirs = await outcome(readWithSaxes, text, limits);
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) {
          throw new Error(`seed ${seed}, round ${round}: ${JSON.stringify(text)} under ${JSON.stringify(limits)}\nreadDocument: ${JSON.stringify(mine)}\nsaxes: ${JSON.stringify(theirs)}`);
        }
        if (plainAccepts(text, limits)) accepted += 1;
        if (!theirs.ok) refused += 1;
      }
    }
    // Both kinds are well represented: changes the plain reader read, and documents saxes refused.
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(1000);
  });
});
