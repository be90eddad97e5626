/**
 * Answers written in parts: chunks of about ANSWER_CHUNK_BYTES with backpressure, the event loop free
 * between them; one that ends before its first chunk goes whole, with its Content-Length. Text stays
 * text unless the answer cache wants the bytes: a Buffer per chunk would stay until a collection.
 */
import type { ServerResponse } from 'node:http';
import { ANSWER_CHUNK_BYTES } from '../tunables';

export type StreamEnd = 'complete' | 'aborted';

/** A response that compression (the middleware) may have given a flush(). */
type Flushable = ServerResponse & { flush?: () => void };

/** Gathers text into chunks and writes them with backpressure; does nothing once the client is gone. */
export class ChunkWriter {
  aborted = false;
  private pending: string[] = [];
  private size = 0;
  /** Whether a chunk went out: the answer is chunked from then on. */
  private started = false;
  /** Resolves the wait for 'drain' under way, if any. */
  private wake: (() => void) | undefined;

  /** `written`: handed each chunk's bytes as they are written, until it answers false. */
  constructor(
    private readonly res: Flushable,
    private written?: (bytes: Buffer) => boolean,
  ) {
    // One listener each for the whole answer: compression moves 'drain' listeners onto its own
    // stream, where removing them again is not possible.
    const wake = () => this.wake?.();
    res.on('drain', wake).on('close', () => {
      // A close before the last byte went out: the client hung up.
      if (!res.writableFinished) this.aborted = true;
      wake();
    });
  }

  async write(text: string): Promise<void> {
    if (this.aborted) return;
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= ANSWER_CHUNK_BYTES) await this.send();
  }

  /** Sends what is gathered and pushes it through the compressor, if any. */
  flush(): void {
    void this.send();
    this.res.flush?.();
  }

  async end(): Promise<StreamEnd> {
    if (this.aborted) return 'aborted';
    const last = this.take();
    if (!this.started && !this.res.headersSent) this.res.setHeader('Content-Length', String(last === undefined ? 0 : typeof last === 'string' ? Buffer.byteLength(last, 'utf8') : last.length));
    this.started = true;
    await new Promise<void>((resolve) => {
      // compression's end() takes no callback: wait for 'finish' (or 'close' when the client left).
      this.res.once('finish', resolve).once('close', resolve);
      if (last === undefined) this.res.end();
      else this.res.end(last);
    });
    return this.aborted ? 'aborted' : 'complete';
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

  /** Writes what is gathered, waits for 'drain' if the socket wants it, and gives the event loop a turn. */
  private async send(): Promise<void> {
    const chunk = this.aborted ? undefined : this.take();
    if (chunk === undefined) return;
    this.started = true;
    if (!this.res.write(chunk)) {
      await new Promise<void>((resolve) => {
        this.wake = () => {
          this.wake = undefined;
          resolve();
        };
      });
    }
    // Between chunks other requests get their turn. Waiting for 'drain' alone does not give it:
    // when the socket takes the bytes at once, 'drain' comes on the next tick, in the same turn.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
