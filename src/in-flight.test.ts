import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('gives each value a number of its own and gives the value back once under it', () => {
    const open = new InFlight<string>();
    const a = open.add('a');
    const b = open.add('b');
    expect(a).not.toBe(b);
    expect(open.values()).toEqual(['a', 'b']);
    expect(open.take(a)).toBe('a');
    expect(open.take(a)).toBeUndefined();
    expect(open.values()).toEqual(['b']);
    expect(open.take(12345)).toBeUndefined();
  });

  it('takes everything at once, after which it is empty and keeps numbering onwards', () => {
    const open = new InFlight<{ n: number }>();
    const first = open.add({ n: 1 });
    open.add({ n: 2 });
    expect(open.takeAll()).toEqual([{ n: 1 }, { n: 2 }]);
    expect(open.values()).toEqual([]);
    expect(open.take(first)).toBeUndefined();
    expect(open.add({ n: 3 })).toBeGreaterThan(first + 1);
  });
});
