/**
 * A report's rows read whole as JSON already, in chunks of text or UTF-8 bytes (src/db/shaped-read.ts,
 * readWhole). The JSON binding writes it as it is, and only a binding that needs the rows themselves
 * (the typed XML of the v2 contract) parses it.
 */
import type { WholeRead } from '../db/shaped-read';

export class JsonRows {
  private text: string | undefined;
  private objects: readonly unknown[] | undefined;

  private constructor(
    /** How many rows. */
    readonly count: number,
    text: string | undefined,
    objects: readonly unknown[] | undefined,
    /**
     * The JSON in chunks that follow one another, text or UTF-8 bytes, when that is how it was made (a
     * whole report, shaped-read.ts readWhole): the JSON binding writes them as they are.
     */
    readonly chunks?: readonly (string | Buffer)[],
  ) {
    this.text = text;
    this.objects = objects;
  }

  static ofChunks(count: number, chunks: readonly (string | Buffer)[]): JsonRows {
    return new JsonRows(count, undefined, undefined, chunks);
  }

  /** JSON.stringify of the rows. */
  get json(): string {
    this.text ??= this.chunks === undefined ? JSON.stringify(this.objects) : joined(this.chunks);
    return this.text;
  }

  /** The rows as objects (parsed from the JSON once, when that is what there is). */
  rows(): readonly unknown[] {
    this.objects ??= JSON.parse(this.text === undefined && this.chunks === undefined ? '[]' : this.json) as unknown[];
    return this.objects;
  }
}

/**
 * A whole read's rows as a result's data (shaped-read.ts, readWhole): as they are, JSON in chunks, for a
 * caller that takes JsonRows (`streams`, OperationContext.streams); else parsed.
 */
export function wholeData<R>(read: WholeRead, streams: boolean): JsonRows | R[] {
  return streams ? JsonRows.ofChunks(read.count, read.chunks) : parsed<R>(read.chunks);
}

/** Rows from their JSON in chunks (a caller that takes no JsonRows, or rows to sort). */
export function parsed<R>(chunks: readonly (string | Buffer)[]): R[] {
  return JSON.parse(joined(chunks)) as R[];
}

function joined(chunks: readonly (string | Buffer)[]): string {
  return chunks.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))).join('');
}
