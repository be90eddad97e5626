import zlib from 'node:zlib';
import { AnswerCache } from './answer-cache';
import { planKey } from '../operations/types';

describe('AnswerCache', () => {
  it('answers a key only under the data version it was kept for', () => {
    const cache = new AnswerCache({ maxBytes: 1000, maxEntryBytes: 500 });
    cache.put('a', '7', 'answer at 7');
    expect(cache.get('a', '7')?.body).toBe('answer at 7');
    expect(cache.get('a', '8')).toBeUndefined();
    // An answer of an older version is dropped at once, not kept beside the new one.
    expect(cache.get('a', '7')).toBeUndefined();
    expect({ hits: cache.hits, misses: cache.misses, size: cache.size, count: cache.count }).toEqual({ hits: 1, misses: 2, size: 0, count: 0 });
  });

  it('holds at most maxBytes, dropping the least recently used answers first', () => {
    const cache = new AnswerCache({ maxBytes: 30, maxEntryBytes: 30 });
    cache.put('a', 'v', 'x'.repeat(10));
    cache.put('b', 'v', 'y'.repeat(10));
    cache.put('c', 'v', 'z'.repeat(10));
    expect(cache.get('a', 'v')).toBeDefined(); // a is now the most recently used
    cache.put('d', 'v', 'w'.repeat(10));
    expect(cache.get('b', 'v')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key, 'v') !== undefined)).toEqual([true, true, true]);
    expect(cache.size).toBe(30);
  });

  it('counts bytes in UTF-8 and never keeps an answer larger than maxEntryBytes', () => {
    const cache = new AnswerCache({ maxBytes: 100, maxEntryBytes: 8 });
    cache.put('ascii', 'v', '12345678');
    cache.put('too-large', 'v', 'ü'.repeat(5)); // 10 bytes in 5 characters
    expect(cache.get('ascii', 'v')?.body).toBe('12345678');
    expect(cache.get('too-large', 'v')).toBeUndefined();
    const keeper = cache.keeper('k', 'v');
    expect(keeper.maxLength).toBe(8);
    keeper.keep('kept');
    expect(cache.get('k', 'v')?.body).toBe('kept');
    expect(cache.size).toBe(12);
  });

  it('compresses a kept answer once, in the background, and counts its compressed forms in its bytes', async () => {
    const cache = new AnswerCache({ maxBytes: 100_000, maxEntryBytes: 50_000 });
    const body = JSON.stringify({ Data: Array.from({ length: 200 }, (_, i) => ({ Row: i, Name: 'Agarwal Traders' })) });
    cache.put('a', 'v', body);
    const kept = cache.get('a', 'v')!;
    expect(kept.compressed('gzip')).toBeUndefined();
    expect(kept.compressed('br')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const gzip = kept.compressed('gzip')!;
    const br = kept.compressed('br')!;
    expect(zlib.gunzipSync(gzip).toString('utf8')).toBe(body);
    expect(zlib.brotliDecompressSync(br).toString('utf8')).toBe(body);
    expect(cache.size).toBe(body.length + gzip.length + br.length);
  });

  it('keeps no compressed form of an answer dropped or replaced meanwhile', async () => {
    const cache = new AnswerCache({ maxBytes: 100_000, maxEntryBytes: 50_000 });
    cache.put('a', 'v', 'x'.repeat(5000));
    expect(cache.get('a', 'v')!.compressed('gzip')).toBeUndefined();
    cache.put('a', 'w', 'y'.repeat(5000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cache.size).toBe(5000);
    expect(cache.get('a', 'w')!.compressed('gzip')).toBeUndefined();
  });

  it('keeps nothing when off (maxBytes 0)', () => {
    const cache = new AnswerCache({ maxBytes: 0, maxEntryBytes: 0 });
    expect(cache.enabled).toBe(false);
    cache.put('a', 'v', '');
    expect(cache.count).toBe(0);
  });
});

describe('planKey', () => {
  it('is the operation and its plan as JSON, absent values left out', () => {
    expect(planKey('getPCNList', { salesOfficer: 'SO01', customer: undefined, allowed: ['SO01', 'SO02'], page: { size: 50 } })).toBe(
      'getPCNList\n{"salesOfficer":"SO01","allowed":["SO01","SO02"],"page":{"size":50}}',
    );
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
