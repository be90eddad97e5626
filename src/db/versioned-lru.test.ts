import { VersionedLru } from './versioned-lru';

const VERSIONS = new Map([['t', 'v']]);
const entry = (bytes: number) => ({ depends: [['t', 'v']] as const, bytes });
const kept = (lru: VersionedLru<ReturnType<typeof entry>>, keys: string) =>
  [...keys].filter((key) => lru.get(key, VERSIONS) !== undefined).join('');

describe('VersionedLru', () => {
  it('drops the least recently used entries when room is needed', () => {
    const lru = new VersionedLru<ReturnType<typeof entry>>(30);
    for (const key of 'abc') lru.put(key, entry(10));
    expect(lru.get('a', VERSIONS)).toBeDefined();
    lru.put('d', entry(10)); // b is the least recently used
    expect(kept(lru, 'acd')).toBe('acd'); // used in this order: a, c, d
    lru.put('e', entry(20)); // a and c go
    expect(kept(lru, 'acde')).toBe('de');
    expect([lru.size, lru.count]).toEqual([30, 2]);
  });
});
