/**
 * The answer cache (docs/operations.md, "Answer cache"): the encoded answers of reads, kept by what
 * determines them and served again for as long as the data they were read from is unchanged.
 *
 * A read's answer is a function of its prepared plan (the checked parameters with every default
 * resolved: the month "now" stands for, the caller's scope; operations/types.ts, PreparedRead.key),
 * of the binding's encoding, and of the rows of the tables it read. Those are named by the tables'
 * versions (db/table-versions.ts), read before the read runs, of the tables the read declares
 * (operations/types.ts, ReadDefinition.reads): an answer read after a commit but kept under the
 * versions before it is never served once that commit is seen, and a request that starts after a
 * commit to a table it reads always sees a new version. A write to other tables (a warranty request,
 * an activity) leaves the answer kept. Nothing goes stale, whichever connection or process wrote; there is no time-to-live to
 * tune.
 *
 * Bounded: at most `maxBytes` in all (least recently used first out), `maxEntryBytes` per answer;
 * lists streamed from a cursor are never kept (they can be any size). An answer is kept under the
 * SHA-256 digest of its key, not the key: a key holds the request's parameters, a digest is KEY_BYTES
 * whatever was sent, and those count in the entry's bytes. Two keys of one digest would share an
 * answer; no two texts with one SHA-256 digest are known, so a wrong answer is never served.
 *
 * A kept answer also keeps its gzip and br forms once a client has asked for them: compressed once, in
 * the background (zlib on libuv's thread pool), with the response compression's own settings, then sent
 * as they are instead of being compressed again for every request (src/response-compression.ts).
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { Dependencies, TableVersions } from '../db/table-versions';
import { VersionedLru, type CacheCounts, type Kept } from '../db/versioned-lru';

export interface AnswerCacheOptions {
  /** The bytes of all kept answers together, with their keys; 0 turns the cache off. */
  maxBytes: number;
  /** The largest answer kept. */
  maxEntryBytes: number;
}

export type ContentCoding = 'br' | 'gzip';

/** `bytes`: of its key's digest, the body and its compressed forms. */
interface Entry extends Kept {
  body: Buffer;
  forms: Partial<Record<ContentCoding, Buffer | 'pending'>>;
  /** What get() gives, made once when the answer is kept. */
  answer: KeptAnswer;
}

/**
 * A kept answer as a binding sends it. Its body is kept as UTF-8 bytes, encoded once: a text would be
 * encoded again for every request that takes it, and for a large answer Node first joins the head and
 * the text into one more string of that size, a young object per request (docs/operations.md, "Garbage
 * on the request path").
 */
export interface KeptAnswer {
  body: Buffer;
  /**
   * The body in this content coding, when it was compressed already; otherwise undefined, and it is
   * compressed in the background for the requests that follow.
   */
  compressed(coding: ContentCoding): Buffer | undefined;
}

/** The response compression's settings (compression's defaults: zlib's gzip level, brotli quality 4). */
const COMPRESS: Record<ContentCoding, (body: Buffer, done: (error: Error | null, result: Buffer) => void) => void> = {
  gzip: (body, done) => zlib.gzip(body, done),
  br: (body, done) => zlib.brotliCompress(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }, done),
};

/** What a kept answer's key takes: its digest, in base64. */
export const KEY_BYTES = 44;

/**
 * What an entry holds beside its body, counted against the budget too: its key's digest, its own
 * objects (the entry, its slot in the Map, its answer and closure) and a pair per table it depends on
 * (the table names and versions themselves are shared with the table versions).
 */
export function entryBytes(depends: Dependencies): number {
  return KEY_BYTES + 256 + 24 * depends.length;
}

function digestOf(key: string): string {
  return createHash('sha256').update(key).digest('base64');
}

/** Where a binding hands the answer it encoded, to be kept (service types.ts, Outcome). */
export interface AnswerKeeper {
  /** Answers of more bytes than this are not kept (a text's length in UTF-16 units is a lower bound of its bytes). */
  readonly maxLength: number;
  /** The answer as text, or as its UTF-8 bytes. */
  keep(body: string | Buffer): void;
}

export class AnswerCache {
  private readonly kept: VersionedLru<Entry>;
  /** Its lookups and what it holds. */
  readonly counts: CacheCounts;

  constructor(private readonly options: AnswerCacheOptions) {
    this.kept = new VersionedLru(options.maxBytes);
    this.counts = this.kept;
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /** The answer kept under this key, if the tables it was read from are still at these versions. */
  get(key: string, versions: TableVersions): KeptAnswer | undefined {
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

  /** A keeper for the answer about to be encoded under this key, read from these tables. */
  keeper(key: string, depends: Dependencies): AnswerKeeper {
    const digest = digestOf(key);
    return {
      maxLength: this.options.maxEntryBytes,
      keep: (body) => this.keep(digest, depends, body),
    };
  }

  put(key: string, depends: Dependencies, answer: string | Buffer): void {
    this.keep(digestOf(key), depends, answer);
  }

  private keep(digest: string, depends: Dependencies, answer: string | Buffer): void {
    if (!this.enabled) return;
    const body = typeof answer === 'string' ? Buffer.from(answer, 'utf8') : answer;
    if (body.length > this.options.maxEntryBytes) return;
    const entry: Entry = { depends, body, bytes: entryBytes(depends) + body.length, forms: {}, answer: { body, compressed: (coding) => this.compressed(digest, entry, coding) } };
    this.kept.put(digest, entry);
  }

}
