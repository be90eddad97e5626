/**
 * The answer cache (docs/operations.md, "Answer cache"): the encoded answers of reads, kept by what
 * determines them and served again for as long as the data they were read from is unchanged.
 *
 * A read's answer is a function of its prepared plan (the checked parameters with every default
 * resolved: the month "now" stands for, the caller's scope; operations/types.ts, PreparedRead.key),
 * of the binding's encoding, and of the data. The data is named by the engine's data version
 * (db/data-version.ts), read before the query runs: an answer is kept under the version read before
 * it, so an answer read after a commit but kept under the version before it is never served once that
 * commit is seen, and a request that starts after a commit always sees a new version. Nothing goes
 * stale, whichever connection or process wrote; there is no time-to-live to tune.
 *
 * Bounded: at most `maxBytes` in all (least recently used first out), `maxEntryBytes` per answer;
 * lists streamed from a cursor are never kept (they can be any size).
 */

export interface AnswerCacheOptions {
  /** The bytes of all kept answers together; 0 turns the cache off. */
  maxBytes: number;
  /** The largest answer kept. */
  maxEntryBytes: number;
}

interface Entry {
  version: string;
  body: string;
  bytes: number;
}

/** Where a binding hands the answer it encoded, to be kept (service types.ts, Outcome). */
export interface AnswerKeeper {
  /** Answers longer than this (in UTF-16 units, a lower bound of their bytes) are not kept. */
  readonly maxLength: number;
  keep(body: string): void;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly options: AnswerCacheOptions) {}

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The answer kept under this key for this data version, if any. */
  get(key: string, version: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== version) {
      if (entry !== undefined) this.remove(key, entry);
      this.misses += 1;
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits += 1;
    return entry.body;
  }

  /** A keeper for the answer about to be encoded under this key and version. */
  keeper(key: string, version: string): AnswerKeeper {
    return {
      maxLength: this.options.maxEntryBytes,
      keep: (body) => this.put(key, version, body),
    };
  }

  put(key: string, version: string, body: string): void {
    const bytes = Buffer.byteLength(body, 'utf8');
    if (!this.enabled || bytes > this.options.maxEntryBytes || bytes > this.options.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) this.remove(key, old);
    this.entries.set(key, { version, body, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  /** Bytes kept now. */
  get size(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
