/**
 * Results kept under the versions of the tables they were read from (table-versions.ts), within a
 * budget of bytes: the answer cache's store. CLOCK stands in for least recently used: a hit only marks
 * its entry, rather than moving it in a long-lived Map at every request (docs/architecture.md).
 */
import { unchanged, type Dependencies, type TableVersions } from './table-versions';

export interface Kept {
  /** The tables it was read from, each with its version then. */
  depends: Dependencies;
  /** What it holds, counted against the budget. */
  bytes: number;
}

/** What a cache tells about itself (the /metrics series, the tests). */
export interface CacheCounts {
  readonly hits: number;
  readonly misses: number;
  /** Bytes kept now. */
  readonly size: number;
  /** Entries kept now. */
  readonly count: number;
}

interface Slot<E> {
  entry: E;
  /** Used since it was kept or last given its second chance. */
  used: boolean;
}

export class VersionedLru<E extends Kept> implements CacheCounts {
  private readonly entries = new Map<string, Slot<E>>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** The entry under this key while its tables keep these versions; an entry gone stale is dropped. */
  get(key: string, versions: TableVersions): E | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined || !unchanged(slot.entry.depends, versions)) {
      if (slot !== undefined) this.remove(key, slot.entry);
      this.misses += 1;
      return undefined;
    }
    slot.used = true;
    this.hits += 1;
    return slot.entry;
  }

  /** Whether this very entry is still the one kept under the key (not replaced, not dropped). */
  holds(key: string, entry: E): boolean {
    return this.entries.get(key)?.entry === entry;
  }

  /** Keeps the entry under the key, in place of any before it, when it fits the budget at all. */
  put(key: string, entry: E): void {
    if (entry.bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) this.remove(key, old.entry);
    this.entries.set(key, { entry, used: false });
    this.total += entry.bytes;
    this.trim(key);
  }

  /** A kept entry came to hold more (the answer cache's compressed forms). */
  grow(entry: E, bytes: number): void {
    entry.bytes += bytes;
    this.total += bytes;
    this.trim();
  }

  /** Bytes kept now. */
  get size(): number {
    return this.total;
  }

  get count(): number {
    return this.entries.size;
  }

  /**
   * Drops the least recently used entries until the rest fit (in the CLOCK order above). `justPut`, the
   * entry being put, counts as used: it goes out only after every other entry has had its chance.
   */
  private trim(justPut?: string): void {
    let spare = justPut;
    // Map keeps insertion order, and its iteration also visits what is set again behind it.
    for (const [oldest, slot] of this.entries) {
      if (this.total <= this.maxBytes) break;
      if (slot.used || oldest === spare) {
        slot.used = false;
        if (oldest === spare) spare = undefined;
        this.entries.delete(oldest);
        this.entries.set(oldest, slot);
      } else {
        this.remove(oldest, slot.entry);
      }
    }
  }

  private remove(key: string, entry: E): void {
    this.entries.delete(key);
    this.total -= entry.bytes;
  }
}
