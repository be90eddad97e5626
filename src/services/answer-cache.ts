/**
 * The answer cache (docs/operations.md, "Answer cache"): encoded answers of reads under their plan's
 * key and the versions of the tables they declare, read before the read ran: served only while those
 * hold, so nothing goes stale. Keys are kept as SHA-256 digests, a fixed size whatever was sent.
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Dependencies, TableVersions } from '../db/table-versions';
import { VersionedLru, type CacheCounts, type Kept } from '../db/versioned-lru';

export type ContentCoding = 'br' | 'gzip';

/** `bytes`: of its key's digest, the body and its compressed forms. */
interface Entry extends Kept {
  body: Buffer;
  forms: Partial<Record<ContentCoding, Buffer | 'pending'>>;
  /** What get() gives, made once when the answer is kept. */
  answer: CachedAnswer;
}

/** A kept answer: its body as UTF-8 bytes, encoded once rather than for every request that takes it. */
export interface CachedAnswer {
  body: Buffer;
  /** The body in this coding when compressed already; otherwise undefined, and compressed for the requests that follow. */
  compressed(coding: ContentCoding): Buffer | undefined;
}

/** The response compression's settings (compression's defaults: zlib's gzip level, brotli quality 4). */
const COMPRESS: Record<ContentCoding, (body: Buffer, done: (error: Error | null, result: Buffer) => void) => void> = {
  gzip: (body, done) => zlib.gzip(body, done),
  br: (body, done) => zlib.brotliCompress(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }, done),
};

/** What a kept answer's key takes: its digest, in base64. */
export const KEY_BYTES = 44;

/** What an entry holds beside its body, counted against the budget too: its digest, its objects, a pair per table. */
export function entryBytes(depends: Dependencies): number {
  return KEY_BYTES + 256 + 24 * depends.length;
}

function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64');
}

/** Where a binding hands the answer it encoded, to be kept (service types.ts, Outcome). */
export interface CacheWriter {
  /** Answers of more bytes than this are not kept (a text's length in UTF-16 units is a lower bound of its bytes). */
  readonly maxLength: number;
  /** The answer as text, or as its UTF-8 bytes. */
  store(body: string | Buffer): void;
  /**
   * Claims the gathering of an answer written in parts: false while another request gathers the same
   * key's (that one is kept; gathering it twice only doubles the bytes held). Ends with release().
   */
  claim(): boolean;
  release(): void;
}

export class AnswerCache {
  private readonly kept: VersionedLru<Entry>;
  /** Digests of the answers being gathered in parts now. */
  private readonly gathering = new Set<string>();
  /** Its lookups and what it holds. */
  readonly counts: CacheCounts;

  /** `maxBytes`: of all kept answers together, with their keys (0 turns the cache off); `maxEntryBytes`: the largest answer kept. */
  constructor(private readonly options: { maxBytes: number; maxEntryBytes: number }) {
    this.kept = new VersionedLru(options.maxBytes);
    this.counts = this.kept;
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The answer kept under this key, if the tables it was read from are still at these versions. */
  get(key: string, versions: TableVersions): CachedAnswer | undefined {
    return this.kept.get(digestOf(key), versions)?.answer;
  }

  private compressed(digest: string, entry: Entry, coding: ContentCoding): Buffer | undefined {
    const form = entry.forms[coding];
    if (form !== undefined) return form === 'pending' ? undefined : form;
    entry.forms[coding] = 'pending';
    COMPRESS[coding](entry.body, (error, result) => {
      // Kept only if the answer still is (not replaced, not dropped) and there is room.
      if (error !== null || !this.kept.holds(digest, entry)) return;
      entry.forms[coding] = result;
      this.kept.grow(entry, result.length);
    });
    return undefined;
  }

  /** Where to hand the answer about to be encoded under this key, read from these tables. */
  writer(key: string, depends: Dependencies): CacheWriter {
    const digest = digestOf(key);
    let claimed = false;
    return {
      maxLength: this.options.maxEntryBytes,
      store: (body) => this.store(digest, depends, body),
      claim: () => {
        if (this.gathering.has(digest)) return false;
        this.gathering.add(digest);
        return (claimed = true);
      },
      release: () => {
        if (claimed) this.gathering.delete(digest);
        claimed = false;
      },
    };
  }

  private store(digest: string, depends: Dependencies, answer: string | Buffer): void {
    if (!this.enabled) return;
    const body = typeof answer === 'string' ? Buffer.from(answer, 'utf8') : answer;
    if (body.length > this.options.maxEntryBytes) return;
    const entry: Entry = {
      depends,
      body,
      bytes: entryBytes(depends) + body.length,
      forms: {},
      answer: { body, compressed: (coding) => this.compressed(digest, entry, coding) },
    };
    this.kept.put(digest, entry);
  }
}
