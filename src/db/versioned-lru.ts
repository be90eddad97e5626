/**
 * Results kept under the versions of the tables they were read from (table-versions.ts), within a
 * budget of bytes, least recently used first out: the answer cache's store.
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

export class VersionedLru<E extends Kept> implements CacheCounts {
  /** In order of use, the least recently used first (a hit sets its entry again, at the end). */
  private readonly entries = new Map<string, E>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  /** The entry under this key while its tables keep these versions; an entry gone stale is dropped. */
  get(key: string, versions: TableVersions): E | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || !unchanged(entry.depends, versions)) {
      if (entry !== undefined) this.remove(key, entry);
      this.misses += 1;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits += 1;
    return entry;
  }

  /** Whether this very entry is still the one kept under the key (not replaced, not dropped). */
  holds(key: string, entry: E): boolean {
    return this.entries.get(key) === entry;
  }

  /** Keeps the entry under the key, in place of any before it, when it fits the budget at all. */
  put(key: string, entry: E): void {
    if (entry.bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) this.remove(key, old);
    this.entries.set(key, entry);
    this.total += entry.bytes;
    this.trim();
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

  /** Drops the least recently used entries until the rest fit. */
  private trim(): void {
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  private remove(key: string, entry: E): void {
    this.entries.delete(key);
    this.total -= entry.bytes;
  }
}
