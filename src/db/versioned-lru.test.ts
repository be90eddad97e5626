import { VersionedLru } from './versioned-lru';

const VERSIONS = new Map([['t', 'v']]);
const entry = (bytes: number) => ({ depends: [['t', 'v']] as const, bytes });
const kept = (lru: VersionedLru<ReturnType<typeof entry>>, keys: string) => [...keys].filter((key) => lru.get(key, VERSIONS) !== undefined).join('');

describe('VersionedLru', () => {
  it('gives an entry used since it was kept, or last passed over, a second chance when room is needed', () => {
    const lru = new VersionedLru<ReturnType<typeof entry>>(30);
    for (const key of 'abc') lru.put(key, entry(10));
    expect(lru.get('a', VERSIONS)).toBeDefined();
    lru.put('d', entry(10)); // a was used: it goes to the back, b goes out
    expect(kept(lru, 'abcd')).toBe('acd'); // and a, c and d are used again
    // Room for e: c, d and a lose their marks and go to the back, e (just put) too, then c goes out.
    lru.put('e', entry(10));
    expect(kept(lru, 'acde')).toBe('ade'); // marks a, d and e once more
    lru.put('f', entry(20)); // two go: every entry had its mark, so the first two in order, d and a
    expect(kept(lru, 'adef')).toBe('ef');
    expect([lru.size, lru.count]).toEqual([30, 2]);
  });

  it('drops the entries not used since they were kept before one that was', () => {
    const lru = new VersionedLru<ReturnType<typeof entry>>(30);
    for (const key of 'abc') lru.put(key, entry(10));
    expect(lru.get('c', VERSIONS)).toBeDefined();
    lru.put('d', entry(20));
    expect(kept(lru, 'abcd')).toBe('cd');
  });
});
