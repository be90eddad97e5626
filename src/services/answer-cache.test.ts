import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { AnswerCache, entryBytes, KEY_BYTES } from './answer-cache';
import { dependencies } from '../db/table-versions';
import { planKey } from '../operations/types';

/** One table at one version, for the tests of what the cache holds. */
const V = [['t', 'v']] as const;
const VERSIONS = new Map([['t', 'v']]);
/** What each entry of one table holds beside its body. */
const ENTRY = entryBytes(V);

describe('AnswerCache', () => {
  it('answers a key only while the tables it was read from keep their versions', () => {
    const cache = new AnswerCache({ maxBytes: 1000, maxEntryBytes: 500 });
    const at7 = new Map([
      ['invoices', '7'],
      ['customers', 'c1'],
      ['activities', 'a1'],
    ]);
    cache
      .writer('a', [
        ['invoices', '7'],
        ['customers', 'c1'],
      ])
      .store('answer at 7');
    expect(cache.get('a', at7)?.body?.toString('utf8')).toBe('answer at 7');
    // Another table written: still the same answer.
    expect(cache.get('a', new Map([...at7, ['activities', 'a2']]))?.body?.toString('utf8')).toBe('answer at 7');
    expect(cache.get('a', new Map([...at7, ['invoices', '8']]))).toBeUndefined();
    // An answer of an older version is dropped at once, not kept beside the new one.
    expect(cache.get('a', at7)).toBeUndefined();
    expect({
      hits: cache.counts.hits,
      misses: cache.counts.misses,
      size: cache.counts.size,
      count: cache.counts.count,
    }).toEqual({ hits: 2, misses: 2, size: 0, count: 0 });
  });

  it('depends on the versions of the tables a read declares, and keeps nothing read from a table without one', () => {
    const versions = new Map([
      ['invoices', 'i1'],
      ['customers', 'c1'],
      ['activities', 'a1'],
      ['api_keys', null],
    ]);
    expect(dependencies(versions, ['customers', 'invoices'])).toEqual([
      ['customers', 'c1'],
      ['invoices', 'i1'],
    ]);
    expect(dependencies(versions, ['api_keys', 'customers'])).toBeUndefined();
    expect(dependencies(versions, ['customers', 'no_such_table'])).toBeUndefined();
  });

  it('holds at most maxBytes, dropping the least recently used answers first', () => {
    const cache = new AnswerCache({ maxBytes: 3 * (ENTRY + 10), maxEntryBytes: 30 });
    cache.writer('a', V).store('x'.repeat(10));
    cache.writer('b', V).store('y'.repeat(10));
    cache.writer('c', V).store('z'.repeat(10));
    expect(cache.get('a', VERSIONS)).toBeDefined(); // a is now the most recently used
    cache.writer('d', V).store('w'.repeat(10));
    expect(cache.get('b', VERSIONS)).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key, VERSIONS) !== undefined)).toEqual([true, true, true]);
    expect(cache.counts.size).toBe(3 * (ENTRY + 10));
  });

  it('counts bytes in UTF-8 and never keeps an answer larger than maxEntryBytes', () => {
    const cache = new AnswerCache({ maxBytes: 1000, maxEntryBytes: 8 });
    cache.writer('ascii', V).store('12345678');
    cache.writer('too-large', V).store('ü'.repeat(5)); // 10 bytes in 5 characters
    expect(cache.get('ascii', VERSIONS)?.body?.toString('utf8')).toBe('12345678');
    expect(cache.get('too-large', VERSIONS)).toBeUndefined();
    const cacheWriter = cache.writer('k', V);
    expect(cacheWriter.maxLength).toBe(8);
    cacheWriter.store('kept');
    expect(cache.get('k', VERSIONS)?.body?.toString('utf8')).toBe('kept');
    expect(cache.counts.size).toBe(2 * ENTRY + 12);
  });

  it("lets one writer at a time gather a key's answer; a release gives the key to the next", () => {
    const cache = new AnswerCache({ maxBytes: 1000, maxEntryBytes: 500 });
    const first = cache.writer('a', V);
    const second = cache.writer('a', V);
    expect(first.claim()).toBe(true);
    expect(second.claim()).toBe(false);
    expect(cache.writer('b', V).claim()).toBe(true);
    // A writer that claimed nothing frees nothing.
    second.release();
    expect(cache.writer('a', V).claim()).toBe(false);
    first.release();
    expect(second.claim()).toBe(true);
  });

  it('compresses a kept answer once, in the background, and counts its compressed forms in its bytes', async () => {
    const cache = new AnswerCache({ maxBytes: 100_000, maxEntryBytes: 50_000 });
    const body = JSON.stringify({ Data: Array.from({ length: 200 }, (_, i) => ({ Row: i, Name: 'Agarwal Traders' })) });
    cache.writer('a', V).store(body);
    const kept = cache.get('a', VERSIONS)!;
    expect(kept.compressed('gzip')).toBeUndefined();
    expect(kept.compressed('br')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const gzip = kept.compressed('gzip')!;
    const br = kept.compressed('br')!;
    expect(zlib.gunzipSync(gzip).toString('utf8')).toBe(body);
    expect(zlib.brotliDecompressSync(br).toString('utf8')).toBe(body);
    expect(cache.counts.size).toBe(ENTRY + body.length + gzip.length + br.length);
  });

  it('keeps no compressed form of an answer dropped or replaced meanwhile', async () => {
    const cache = new AnswerCache({ maxBytes: 100_000, maxEntryBytes: 50_000 });
    cache.writer('a', V).store('x'.repeat(5000));
    expect(cache.get('a', VERSIONS)!.compressed('gzip')).toBeUndefined();
    cache.writer('a', [['t', 'w']]).store('y'.repeat(5000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cache.counts.size).toBe(ENTRY + 5000);
    expect(cache.get('a', new Map([['t', 'w']]))!.compressed('gzip')).toBeUndefined();
  });

  it('keeps a key of any length as its digest: KEY_BYTES, counted in the bytes it holds with its dependencies', () => {
    const cache = new AnswerCache({ maxBytes: 10_000, maxEntryBytes: 100 });
    const long = `getPCNList\n{"salesOfficer":"${'X'.repeat(1_000_000)}"}`;
    cache.writer(long, V).store('answer');
    cache.writer(`${long}2`, V).store('other');
    expect(cache.get(long, VERSIONS)?.body.toString('utf8')).toBe('answer');
    expect(cache.get(`${long}2`, VERSIONS)?.body.toString('utf8')).toBe('other');
    expect(cache.get(`${long}3`, VERSIONS)).toBeUndefined();
    expect({ size: cache.counts.size, count: cache.counts.count }).toEqual({
      size: 2 * ENTRY + 'answer'.length + 'other'.length,
      count: 2,
    });
    // KEY_BYTES is what a key's digest takes, whatever the key's length; each table depended on counts too.
    expect(KEY_BYTES).toBe(Buffer.from(createHash('sha256').update(long).digest('base64')).length);
    expect(
      entryBytes([
        ['a', '1'],
        ['b', '2'],
      ]),
    ).toBeGreaterThan(entryBytes([['a', '1']]));
    expect(entryBytes([])).toBeGreaterThan(KEY_BYTES);
  });

  it('keeps nothing when off (maxBytes 0)', () => {
    const cache = new AnswerCache({ maxBytes: 0, maxEntryBytes: 0 });
    expect(cache.enabled).toBe(false);
    cache.writer('a', V).store('');
    expect(cache.counts.count).toBe(0);
  });
});

describe('planKey', () => {
  it('is the operation and its plan as JSON, absent values left out', () => {
    expect(
      planKey('getPCNList', {
        salesOfficer: 'SO01',
        customer: undefined,
        allowed: ['SO01', 'SO02'],
        page: { size: 50 },
      }),
    ).toBe('getPCNList\n{"salesOfficer":"SO01","allowed":["SO01","SO02"],"page":{"size":50}}');
  });

  it('gives none for a plan JSON would not render whole: a Map, a Set, an instance, a function', () => {
    class Filter {
      constructor(readonly code: string) {}
    }
    for (const value of [new Map([['a', 1]]), new Set(['a']), new Filter('a'), () => 'a']) {
      expect(planKey('op', { nested: { value } })).toBeUndefined();
    }
  });
});
