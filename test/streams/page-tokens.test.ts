/**
 * A PageToken comes back from the client, who can change it (docs/behaviour.md, "Paging"): every
 * part of its key is checked before it reaches the database, so a changed token is a page (when it is
 * still a key of the list) or INVALID_PARAMETER naming PageToken, never a server fault, on both
 * engines. Real tokens of every paged operation and sort order are decoded, changed (parts of the
 * wrong type, impossible dates, garbage and long text, numbers out of range, parts added or taken
 * away) and sent again.
 */
import fc from 'fast-check';
import type { EngineKind } from '../../src/db/engine';
import type { Operation } from '../../src/operations/types';
import { AppError } from '../../src/errors';
import { getCollectionStatements } from '../../src/collections/operations';
import { getPCNList } from '../../src/pcn/operations';
import { activityReportAndComplaints } from '../../src/activities/operations';
import { ENGINES } from '../support/engines';
import { MAIN_PATH } from '../support/interface-table';
import { runOperation } from '../support/operation';
import { insertListFixture } from './list-fixture';
import { getRaw, startStreamApp, type StreamApp } from './stream-support';

/** Every paged operation, with every kind of sort key a token carries (text, date, integer). */
const LISTS: ReadonlyArray<readonly [string, Operation, Record<string, string>]> = [
  ['getPCNList', getPCNList, {}],
  ['ActivityReportAndComplaints', activityReportAndComplaints, {}],
  ['getCollectionStatements by ReceiptDate', getCollectionStatements, {}],
  ['getCollectionStatements by Amount DESC', getCollectionStatements, { SortBy: 'Amount', SortDirection: 'DESC' }],
  ['getCollectionStatements by CustomerName', getCollectionStatements, { SortBy: 'CustomerName' }],
];

interface TokenDocument {
  v: unknown;
  k: unknown;
}

const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as TokenDocument;
const encode = (document: TokenDocument) => Buffer.from(JSON.stringify(document), 'utf8').toString('base64url');

/** yyyy-MM-dd from any numbers: impossible dates (month 13, day 30 of February, year 0) among them. */
const dateLike = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 40 }))
  .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

/** What a part of a key may be changed into. */
const changedValue: fc.Arbitrary<unknown> = fc.oneof(
  dateLike,
  fc.constantFrom(
    '2026-02-30',
    '2025-02-29',
    '2026-1-5',
    '2026-01-05T10:00:00Z',
    'end',
    '',
    'PDC\u0000',
    '\u0000',
    "' or 1=1 --",
    'x'.repeat(513),
    'x'.repeat(900),
  ),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 1e300, -1e300, 0.5, -1),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
);

type Path = ReadonlyArray<string | number>;

/** The paths of every value inside a key (its parts, and the members of a part that is an object). */
function pathsOf(value: unknown, path: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [path];
  const entries: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return [path, ...entries.flatMap(([name, v]) => pathsOf(v, [...path, name]))];
}

/** The key with the value at `path` changed by `change` (which gets the container and the name). */
function atPath(
  key: unknown,
  path: Path,
  change: (container: Record<string | number, unknown>, name: string | number) => void,
): unknown {
  if (path.length === 0) return key;
  const copy = structuredClone(key) as Record<string | number, unknown>;
  let container = copy;
  for (const name of path.slice(0, -1)) container = container[name] as Record<string | number, unknown>;
  change(container, path[path.length - 1]);
  return copy;
}

type Mutation = (key: unknown) => unknown;

const pick = (key: unknown, index: number) => {
  const paths = pathsOf(key);
  return paths[index % paths.length];
};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // A part (or a member of one) changed.
  fc.tuple(fc.nat(), changedValue).map(
    ([i, value]): Mutation =>
      (key) =>
        atPath(key, pick(key, i), (c, name) => (c[name] = value)),
  ),
  // A part taken away, or one added.
  fc.nat().map(
    (i): Mutation =>
      (key) =>
        atPath(key, pick(key, i), (c, name) => (Array.isArray(c) ? c.splice(Number(name), 1) : delete c[name])),
  ),
  fc.tuple(fc.nat(), changedValue).map(
    ([i, value]): Mutation =>
      (key) =>
        Array.isArray(key) ? [...key.slice(0, i % (key.length + 1)), value, ...key.slice(i % (key.length + 1))] : key,
  ),
  fc.tuple(fc.nat(), fc.string({ maxLength: 5 }), changedValue).map(
    ([i, name, value]): Mutation =>
      (key) =>
        atPath(key, pick(key, i), (c, at) => {
          const target = c[at];
          if (target !== null && typeof target === 'object' && !Array.isArray(target))
            (target as Record<string, unknown>)[name] = value;
        }),
  ),
  // The whole key replaced.
  changedValue.map(
    (value): Mutation =>
      () =>
        value,
  ),
);

/** What a call gave: a page, or the refusal of the token; anything else (a server fault) is thrown. */
async function outcome(call: Promise<unknown>): Promise<'page' | 'refused'> {
  try {
    await call;
    return 'page';
  } catch (error) {
    if (error instanceof AppError && error.code === 'INVALID_PARAMETER' && error.field === 'PageToken')
      return 'refused';
    throw error;
  }
}

describe.each(ENGINES)('changed page tokens: %s', (kind: EngineKind) => {
  let t: StreamApp;
  beforeAll(async () => {
    t = await startStreamApp(kind, (engine) =>
      insertListFixture(engine.db, { receipts: 60, cheques: 30, activities: 25, complaints: 15 }),
    );
  });
  afterAll(() => t.stop());

  /** A real token of the list's first page. */
  async function firstToken(op: Operation, fields: Record<string, string>): Promise<string> {
    const first = await runOperation(op, t.engine, { ...fields, PageSize: '4' });
    return first.nextPageToken!;
  }

  it.each(LISTS)('a changed token of %s is a page or INVALID_PARAMETER on PageToken', async (_name, op, fields) => {
    const document = decode(await firstToken(op, fields));
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const k = mutations.reduce((key, change) => change(key), document.k);
        await outcome(
          runOperation(op, t.engine, { ...fields, PageSize: '4', PageToken: encode({ v: document.v, k }) }),
        );
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    ['getPCNList: an impossible date', getPCNList, {}, () => ['2026-02-30', 'PDC1']],
    ['getPCNList: a date of another form', getPCNList, {}, () => ['30/01/2026', 'PDC1']],
    ['getPCNList: a NUL in the number', getPCNList, {}, () => ['2026-01-30', 'PDC\u00001']],
    ['getPCNList: a part too many', getPCNList, {}, (k: unknown[]) => [...k, 'x']],
    ['getPCNList: a number for the date', getPCNList, {}, (k: unknown[]) => [20260130, k[1]]],
    [
      'ActivityReportAndComplaints: a garbage date',
      activityReportAndComplaints,
      {},
      () => [{ date: 'garbage', no: 'ACT1' }, null],
    ],
    [
      'ActivityReportAndComplaints: a member too many',
      activityReportAndComplaints,
      {},
      (k: unknown[]) => [{ ...(k[0] as object), extra: 1 }, k[1]],
    ],
    [
      'getCollectionStatements: an impossible receipt date',
      getCollectionStatements,
      {},
      (k: unknown[]) => [k[0], k[1], '2026-04-31', k[3]],
    ],
    [
      'getCollectionStatements: an amount as text',
      getCollectionStatements,
      { SortBy: 'Amount' },
      (k: unknown[]) => [k[0], k[1], '1000', k[3]],
    ],
    [
      'getCollectionStatements: an amount beyond exact integers',
      getCollectionStatements,
      { SortBy: 'Amount' },
      (k: unknown[]) => [k[0], k[1], 1e20, k[3]],
    ],
  ] as const)('refuses %s', async (_label, op, fields, change) => {
    const document = decode(await firstToken(op, fields));
    const k = change(document.k as unknown[]);
    await expect(outcome(runOperation(op, t.engine, { ...fields, PageToken: encode({ v: 1, k }) }))).resolves.toBe(
      'refused',
    );
  });

  it('answers the tampered token over HTTP as a JSON failure naming PageToken', async () => {
    const token = encode({ v: 1, k: ['2026-02-30', 'PDC1'] });
    const answer = await getRaw(t.port, `${MAIN_PATH}/getPCNList?PageToken=${token}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({
      Success: false,
      Code: 'INVALID_PARAMETER',
      Field: 'PageToken',
    });
  });
});
