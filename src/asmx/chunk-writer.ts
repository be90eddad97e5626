/**
 * Answers written in parts: chunks of about ANSWER_CHUNK_BYTES, the event loop free between them; one
 * that ends before its first chunk goes whole, with its Content-Length. The chunks go out through an
 * AnswerOutlet, which never makes the writer wait for the client (answer-spool.ts). Text stays text
 * unless the answer cache wants the bytes: a Buffer per chunk would stay until a collection.
 */
import type { ServerResponse } from 'node:http';
import { ANSWER_CHUNK_BYTES } from '../tunables';
import { AnswerOutlet, type SpoolStore } from './answer-spool';

export type StreamEnd = 'complete' | 'aborted';

/** A response that compression (the middleware) may have given a flush(). */
type Flushable = ServerResponse & { flush?: () => void };

/** Gathers text into chunks and hands them to the outlet; does nothing once the client is gone. */
export class ChunkWriter {
  private pending: string[] = [];
  private size = 0;
  private chars = 0;
  /** Whether a chunk went out: the answer is chunked from then on. */
  private started = false;
  private readonly outlet: AnswerOutlet;

  /** `written`: handed each chunk's bytes as they are written, until it answers false. */
  constructor(
    private readonly res: Flushable,
    spool: SpoolStore,
    private written?: (bytes: Buffer) => boolean,
  ) {
    this.outlet = new AnswerOutlet(res, spool);
  }

  /** Characters written so far. */
  get length(): number {
    return this.chars;
  }

  get aborted(): boolean {
    return this.outlet.aborted;
  }

  async write(text: string): Promise<void> {
    if (this.aborted) return;
    this.pending.push(text);
    this.size += text.length;
    this.chars += text.length;
    if (this.size >= ANSWER_CHUNK_BYTES) await this.send();
  }

  /** Sends what is gathered and pushes it through the compressor, if any. */
  async flush(): Promise<void> {
    await this.send();
    this.res.flush?.();
  }

  /**
   * Sends the last chunk; resolves once the client has every byte, or went away. `whole` runs as soon as
   * every byte is taken, before the client has them: what gathered them need not wait for a slow client.
   */
  async end(whole?: () => void): Promise<StreamEnd> {
    if (this.aborted) return 'aborted';
    const last = this.take();
    whole?.();
    if (!this.started && !this.res.headersSent)
      this.res.setHeader(
        'Content-Length',
        String(last === undefined ? 0 : typeof last === 'string' ? Buffer.byteLength(last, 'utf8') : last.length),
      );
    this.started = true;
    return this.outlet.end(last);
  }

  /** What is gathered, as one chunk (its bytes handed to `written`); undefined when nothing is. */
  private take(): string | Buffer | undefined {
    if (this.pending.length === 0) return undefined;
    const pieces = this.pending;
    this.pending = [];
    this.size = 0;
    if (this.written === undefined) return pieces.join('');
    const chunk = Buffer.from(pieces.join(''), 'utf8');
    if (!this.written(chunk)) this.written = undefined;
    return chunk;
  }

  /** Hands what is gathered to the outlet, and gives the event loop a turn. */
  private async send(): Promise<void> {
    const chunk = this.aborted ? undefined : this.take();
    if (chunk === undefined) return;
    this.started = true;
    await this.outlet.write(chunk);
    // Between chunks other requests get their turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
