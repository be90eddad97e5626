import { AnswerCache } from './answer-cache';
import { planKey } from '../operations/types';

describe('AnswerCache', () => {
  it('answers a key only under the data version it was kept for', () => {
    const cache = new AnswerCache({ maxBytes: 1000, maxEntryBytes: 500 });
    cache.put('a', '7', 'answer at 7');
    expect(cache.get('a', '7')).toBe('answer at 7');
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
    expect(cache.get('ascii', 'v')).toBe('12345678');
    expect(cache.get('too-large', 'v')).toBeUndefined();
    const keeper = cache.keeper('k', 'v');
    expect(keeper.maxLength).toBe(8);
    keeper.keep('kept');
    expect(cache.get('k', 'v')).toBe('kept');
    expect(cache.size).toBe(12);
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
