/**
 * The worst documents a client can send to the SOAP bindings within the default body limit (4 MiB),
 * against the real app on a real socket with the production defaults (docs/operations.md, "Input
 * limits"). Before the depth bound, 50,000 nested elements were answered after 16-30 s, with /health
 * unanswered meanwhile (saxes resolves namespaces at a cost growing with the depth: quadratic). Now
 * every document over MAX_XML_DEPTH or MAX_XML_NODES is malformed input, 400 with an empty body as ASMX
 * answers malformed XML (docs/contract.md, recorded: err-soap11-malformed-xml, err-soap12-malformed-xml), within
 * milliseconds; every document read whole is linear in its size (4 MiB of the slowest constructs:
 * 0.3-0.6 s idle); and /health keeps answering throughout (the parse yields every 64 KiB).
 *
 * The npm soap library parses nothing a client sends: it only writes the responses (soap/index.ts).
 */
import { listenTestApp, type ListeningApp } from '../support/listen';
import {
  READ_WHOLE_WITHIN_MS,
  expectQuickAndHealthy,
  sendWithHealth,
  type HostileOutcome,
} from '../http/hostile-support';
import {
  MAIN_PATH,
  SOAP11_TYPE,
  SOAP12_TYPE,
  emptyResponse,
  envelope,
  operationElement,
  type Version,
} from './soap-support';

const ns = 'http://tempuri.org/';
const MiB = 1024 * 1024;
/** A little under the default MAX_REQUEST_BYTES, leaving room for the envelope around the filling. */
const FILL = 4 * MiB - 2048;

let t: ListeningApp;

beforeAll(async () => {
  t = await listenTestApp({
    env: { MAX_REQUEST_BYTES: undefined, MAX_XML_DEPTH: undefined, MAX_XML_NODES: undefined },
  });
});

afterAll(() => t.stop());

const headersOf = (version: Version) =>
  version === '1.1'
    ? { 'Content-Type': SOAP11_TYPE, SOAPAction: `"${ns}getPCNList"` }
    : { 'Content-Type': SOAP12_TYPE };

function post(version: Version, body: string): Promise<HostileOutcome> {
  return sendWithHealth(t.baseUrl, { method: 'POST', path: MAIN_PATH, headers: headersOf(version), body });
}

/** getPCNList with `inBody` inside its element, and `inHeader` as the Header's content. */
const pcn = (version: Version, inBody = '', inHeader = '') =>
  envelope(version, `<getPCNList xmlns="${ns}">${inBody}</getPCNList>`, inHeader);

const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.floor(bytes / unit.length));

const nested = (depth: number) => '<a>'.repeat(depth) + '</a>'.repeat(depth);

const REFUSED: [string, (version: Version) => string][] = [
  ['50,000 nested elements in the Body', (v) => pcn(v, nested(50_000))],
  ['100,000 nested elements in a Header block', (v) => pcn(v, '', `<h xmlns="urn:x">${nested(100_000)}</h>`)],
  ['4 MiB of open tags and no end', (v) => pcn(v, repeatTo('<a>', FILL))],
  ['65 levels, one over the bound', (v) => pcn(v, '', `<h xmlns="urn:x">${nested(62)}</h>`)],
  [
    '300,000 attributes on one element',
    (v) => pcn(v, `<a ${Array.from({ length: 300_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`),
  ],
  [
    '170,000 namespace declarations on one element',
    (v) => pcn(v, `<a ${Array.from({ length: 170_000 }, (_, i) => `xmlns:p${i}="u:${i}"`).join(' ')}/>`),
  ],
  [
    'a million sibling elements 60 levels down',
    (v) => pcn(v, '<a>'.repeat(58) + repeatTo('<b/>', FILL - 300) + '</a>'.repeat(58)),
  ],
  ['140,000 parameter elements', (v) => pcn(v, repeatTo('<SalesOfficer>1</SalesOfficer>', FILL))],
  [
    'an XML 1.1 declaration (it would admit &#1;)',
    (v) => pcn(v, '<SalesOfficer>&#1;</SalesOfficer>').replace('version="1.0"', 'version="1.1"'),
  ],
];

const SERVED: [string, (version: Version) => string][] = [
  ['a 4 MiB comment', (v) => pcn(v, `<!--${repeatTo('-x', FILL)}-->`)],
  [
    '4 MiB of CDATA brackets in an unknown header block',
    (v) => pcn(v, '', `<h xmlns="urn:x"><![CDATA[${']'.repeat(FILL)}]]></h>`),
  ],
  ['a 4 MiB element name in a header block', (v) => pcn(v, '', `<${'n'.repeat(FILL)} xmlns="urn:x"/>`)],
  [
    '4 MiB of character references in a header block',
    (v) => pcn(v, '', `<h xmlns="urn:x">${repeatTo('&#x1F600;', FILL)}</h>`),
  ],
  [
    '4 MiB of entity references in a header block',
    (v) => pcn(v, '', `<h xmlns="urn:x">${repeatTo('&amp;', FILL)}</h>`),
  ],
  ['a 4 MiB attribute value', (v) => pcn(v, '', `<h xmlns="urn:x" a="${'v'.repeat(FILL)}"/>`)],
  [
    '5,000 empty sibling elements (depth does not add up)',
    (v) => pcn(v, '', `<h xmlns="urn:x">${'<a/>'.repeat(5000)}</h>`),
  ],
  [
    'nesting at the bound (64 levels: Envelope, Header, h and 61 more)',
    (v) => pcn(v, '', `<h xmlns="urn:x">${nested(61)}</h>`),
  ],
];

describe.each(['1.1', '1.2'] as const)('SOAP %s', (version) => {
  test.each(REFUSED)('%s: 400, empty, at once, /health answering', async (_name, build) => {
    const body = build(version);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4 * MiB);
    const outcome = await post(version, body);
    expect(outcome.answer.status).toBe(400);
    expect(outcome.answer.headers['content-type']).toBe(version === '1.1' ? SOAP11_TYPE : SOAP12_TYPE);
    expect(outcome.answer.text).toBe('');
    expectQuickAndHealthy(outcome);
  });

  // Read whole, the two versions cost the same (one parser); 1.1 alone spares the shared CPU.
  const served = version === '1.1' ? SERVED : SERVED.slice(-2);
  test.each(served)(
    '%s: the operation answers, in time linear in the size, /health answering',
    async (_name, build) => {
      const body = build(version);
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(4 * MiB);
      const outcome = await post(version, body);
      expect(outcome.answer.status).toBe(200);
      expect(outcome.answer.text).toBe(emptyResponse(version, 'getPCNList', ns));
      expectQuickAndHealthy(outcome, READ_WHOLE_WITHIN_MS);
    },
  );
});

describe('the bounds are settings', () => {
  let small: ListeningApp;
  beforeAll(async () => {
    small = await listenTestApp({ env: { MAX_XML_DEPTH: '8', MAX_XML_NODES: '100' } });
  });
  afterAll(() => small.stop());

  const call = (body: string) =>
    sendWithHealth(small.baseUrl, { method: 'POST', path: MAIN_PATH, headers: headersOf('1.1'), body });

  test('MAX_XML_DEPTH=8: 8 levels are read, 9 are malformed', async () => {
    // Envelope, Body, getPCNList, SalesOfficer: 4 levels, and 4 or 5 more inside the parameter.
    expect((await call(pcn('1.1', `<SalesOfficer>${nested(4)}</SalesOfficer>`))).answer.status).toBe(200);
    expect((await call(pcn('1.1', `<SalesOfficer>${nested(5)}</SalesOfficer>`))).answer.status).toBe(400);
  });

  test('MAX_XML_NODES=100: elements and attributes count together', async () => {
    // The envelope: Envelope (3 namespace declarations), Body, getPCNList (1): 7 nodes.
    const fits = operationElement(
      'getPCNList',
      ns,
      Object.fromEntries(Array.from({ length: 93 }, (_, i) => [`P${i}`, '1'])),
    );
    expect((await call(envelope('1.1', fits))).answer.status).toBe(200);
    const over = `<getPCNList xmlns="${ns}">${'<P/>'.repeat(92)}<P a="1"/></getPCNList>`;
    expect((await call(envelope('1.1', over))).answer.status).toBe(400);
  });
});
