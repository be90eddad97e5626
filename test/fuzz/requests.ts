/**
 * fast-check generators of hostile requests for the fuzz suite (fuzz.test.ts): a valid request of a
 * real operation in one of the four bindings, then mutated at the byte level (inserted fragments that
 * parsers trip over, deletions, flipped bytes, truncations, repeated runs) and sent with varied headers.
 */
import fc from 'fast-check';
import zlib from 'node:zlib';
import { MAIN_PATH, SYNC_PATH, wsdlOperations, wsdlParams, type Version } from '../soap/soap-support';
import type { RawRequest } from '../http/hostile-support';

const NS = 'http://tempuri.org/';
const MAIN_OPERATIONS = wsdlOperations('MobileAppWebService');

/** Fields the operations without contract parameters read (docs/behaviour.md), plus unknown ones. */
const EXTRA_FIELDS = [
  'CustomerCode',
  'SalesOfficer',
  'ProductCode',
  'SerialNo',
  'Complaint',
  'PurchaseDate',
  'ClientRequestId',
  'RequestNo',
  'ActivityNo',
  'Status',
  'Remarks',
  'FileName',
  'FileContent',
  'Since',
  'Username',
  'Transporter',
  'LRNo',
  'X',
];

/** Text that parsers and validators trip over. */
const FRAGMENTS = [
  '<a>',
  '</a>',
  '<a/>',
  '<',
  '>',
  '&',
  '&amp;',
  '&#0;',
  '&#x1;',
  '&#xD800;',
  '&#xFFFE;',
  '&#1114112;',
  '&bogus;',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<?xml version="1.1"?>',
  '<!DOCTYPE x [<!ENTITY e "e">]>',
  '&e;',
  'xmlns:p="urn:x"',
  '<p:x/>',
  'xmlns=""',
  '<soap:Header><h xmlns="urn:h" soap:mustUnderstand="1"/></soap:Header>',
  '<soap:Body/>',
  '</soap:Envelope>',
  'xsi:nil="true"',
  '\u0000',
  '\u0001',
  '\uFFFE',
  '\uFFFF',
  '\uD800',
  '\u00E9',
  '😀',
  '\r\n',
  '"',
  "'",
  '=',
  '%',
  '%FF',
  '%00',
  '%C3%A9',
  '+',
  '&&',
  '==',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '\\u0000',
  '\\ud800',
  '\\',
  'null',
  'true',
  '1e999',
  '-0',
  '31/02/2026',
  '2026-13-45',
  "' OR 1=1 --",
  '--XyZ\r\n',
  '--XyZ--',
  'Content-Disposition: form-data; name="a"\r\n\r\n',
  'filename="x.png"',
  'Content-Type: text/plain; charset=utf-8\r\n',
];

const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('<a>', '[', '{"a":', '<p:a xmlns:p="u">'), fc.integer({ min: 2, max: 3000 }))
      .map(([s, n]) => s.repeat(n)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('latin1')) },
);

type Mutation =
  | { kind: 'insert'; at: number; text: string; raw: boolean }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'repeat'; at: number; length: number; times: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fragment, raw: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('repeat' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 30 }),
      times: fc.integer({ min: 2, max: 2000 }),
    }),
  },
);

/** Applies mutations to bytes; `raw` inserts a fragment's characters as latin1 bytes instead of UTF-8. */
export function mutate(bytes: Buffer, mutations: readonly Mutation[]): Buffer {
  let out = bytes;
  for (const m of mutations) {
    const at = m.at % (out.length + 1);
    if (m.kind === 'insert')
      out = Buffer.concat([out.subarray(0, at), Buffer.from(m.text, m.raw ? 'latin1' : 'utf8'), out.subarray(at)]);
    else if (m.kind === 'delete') out = Buffer.concat([out.subarray(0, at), out.subarray(at + m.length)]);
    else if (m.kind === 'flip' && at < out.length)
      out = Buffer.concat([out.subarray(0, at), Buffer.from([m.byte]), out.subarray(at + 1)]);
    else if (m.kind === 'truncate') out = out.subarray(0, at);
    else if (m.kind === 'repeat')
      out = Buffer.concat([
        out.subarray(0, at),
        ...Array<Buffer>(m.times).fill(out.subarray(at, at + m.length)),
        out.subarray(at),
      ]);
  }
  return out;
}

const mutations = fc.array(mutation, { minLength: 0, maxLength: 4 });

/** A value: usually plausible, sometimes any text at all. */
const value = fc.oneof(
  fc.constantFrom(
    '',
    'SO01',
    'C001',
    'P002',
    'PC1',
    '15/01/2026',
    '2026-01-15',
    'PDC',
    'CHEQUE',
    'asc',
    'Amount',
    '1',
    'N,S',
    'admin',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const operation = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...MAIN_OPERATIONS) },
  { weight: 1, arbitrary: fc.constant('HelloWorld') },
);

/** An operation and name/value pairs meant for it. */
const opWithPairs = (ops: fc.Arbitrary<string>) => ops.chain((op) => pairsFor(op).map((pairs) => ({ op, pairs })));

const pathOf = (op: string) => (op === 'HelloWorld' ? SYNC_PATH : MAIN_PATH);

/** Name/value pairs for an operation: its contract parameters or extra fields, in any case. */
const pairsFor = (op: string) => {
  const names = op === 'HelloWorld' ? ['X'] : wsdlParams('MobileAppWebService', op);
  const pool = names.length > 0 ? [...names, 'Unknown'] : EXTRA_FIELDS;
  const name = fc.oneof(
    fc.constantFrom(...pool),
    fc.constantFrom(...pool).map((n) => n.toLowerCase()),
    fc.string({ maxLength: 8 }),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 8 });
};

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function soapBody(version: Version, op: string, pairs: [string, string][]): string {
  const ns =
    version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  const children = pairs.map(([n, v]) => (/^[A-Za-z_][\w.-]*$/.test(n) ? `<${n}>${xmlText(v)}</${n}>` : '')).join('');
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body><${op} xmlns="${NS}">${children}</${op}></soap:Body></soap:Envelope>`;
}

export const soapRequests: fc.Arbitrary<RawRequest> = fc
  .record({
    version: fc.constantFrom<Version>('1.1', '1.2'),
    call: opWithPairs(operation),
    mutations,
    contentType: fc.constantFrom(
      '',
      '; charset=utf-8',
      '; charset=UTF-8',
      '; charset=utf-16',
      '; charset=bogus',
      '; action="http://tempuri.org/getPCNList"',
    ),
    action: fc.constantFrom('right', 'none', 'empty', 'other', 'unquoted'),
    gzip: fc.constantFrom('none', 'none', 'none', 'gzip', 'broken'),
  })
  .map(({ call: { op, pairs }, ...c }) => {
    let body = mutate(Buffer.from(soapBody(c.version, op, pairs)), c.mutations);
    const headers: Record<string, string> = {
      'Content-Type': (c.version === '1.1' ? 'text/xml' : 'application/soap+xml') + c.contentType,
    };
    const actions: Record<string, string | undefined> = {
      right: `"${NS}${op}"`,
      none: undefined,
      empty: '',
      other: `"${NS}getPCNList"`,
      unquoted: `${NS}${op}`,
    };
    const action = actions[c.action];
    if (action !== undefined) headers.SOAPAction = action;
    if (c.gzip !== 'none') {
      headers['Content-Encoding'] = 'gzip';
      if (c.gzip === 'gzip') body = zlib.gzipSync(body);
    }
    return { method: 'POST', path: pathOf(op), headers, body };
  });

/** WHATWG form encoding of pairs, then mutated as bytes (so %XX, '+' and raw bytes all occur). */
const formBytes = (pairs: [string, string][], m: readonly Mutation[]) =>
  mutate(Buffer.from(new URLSearchParams(pairs).toString()), m);

export const getRequests: fc.Arbitrary<RawRequest> = fc
  .record({ call: opWithPairs(operation), mutations, opCase: fc.boolean() })
  .map(({ call, ...c }) => {
    // Node refuses a request line with bytes outside visible ASCII: such bytes go percent-encoded.
    const query = formBytes(call.pairs, c.mutations)
      .toString('latin1')
      .replace(/[^\x21-\x7e]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`)
      .replace(/#/g, '%23');
    const op = c.opCase ? call.op : call.op.toLowerCase();
    return { method: 'GET', path: `${pathOf(call.op)}/${op}?${query}` };
  });

export const formRequests: fc.Arbitrary<RawRequest> = fc
  .record({ call: opWithPairs(operation), mutations, charset: fc.boolean() })
  .map(({ call, ...c }) => ({
    method: 'POST',
    path: `${pathOf(call.op)}/${call.op}`,
    headers: { 'Content-Type': `application/x-www-form-urlencoded${c.charset ? '; charset=utf-8' : ''}` },
    body: formBytes(call.pairs, c.mutations),
  }));

/** JSON bodies go to the operations without contract parameters (docs/contract.md). */
const openOperation = fc.constantFrom(
  ...MAIN_OPERATIONS.filter((op) => wsdlParams('MobileAppWebService', op).length === 0),
  'HelloWorld',
);

export const jsonRequests: fc.Arbitrary<RawRequest> = fc
  .record({
    op: openOperation,
    document: fc.oneof(
      opWithPairs(openOperation).map(({ pairs }) => JSON.stringify(Object.fromEntries(pairs))),
      fc.json({ depthSize: 'medium' }),
      fc.integer({ min: 60, max: 5000 }).map((n) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`),
    ),
    mutations,
  })
  .map((c) => ({
    method: 'POST',
    path: `${pathOf(c.op)}/${c.op}`,
    headers: { 'Content-Type': 'application/json' },
    body: mutate(Buffer.from(c.document), c.mutations),
  }));

const BOUNDARY = 'XyZ';

function multipartBody(
  fields: [string, string][],
  files: { name: string; filename: string; bytes: Uint8Array }[],
): Buffer {
  const parts: Buffer[] = [];
  for (const [name, v] of fields)
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/"/g, '')}"\r\n\r\n${v}\r\n`),
    );
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename.replace(/"/g, '')}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
    );
    parts.push(Buffer.from(f.bytes), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

export const multipartRequests: fc.Arbitrary<RawRequest> = fc
  .record({
    call: opWithPairs(openOperation),
    files: fc.array(
      fc.record({
        name: fc.constantFrom('file', 'files', 'x'),
        filename: fc.string({ maxLength: 12 }),
        bytes: fc.uint8Array({ maxLength: 64 }),
      }),
      { maxLength: 3 },
    ),
    mutations,
  })
  .map(({ call, ...c }) => ({
    method: 'POST',
    path: `${pathOf(call.op)}/${call.op}`,
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: mutate(multipartBody(call.pairs, c.files), c.mutations),
  }));
