/**
 * Where an answer waits for a slow client (docs/architecture.md, "Slow clients and the database"):
 * its bytes go to the socket while the socket takes them; once it pushes back, the rest go to a file
 * of the answer's own and are sent from there as the client reads. So whoever writes the answer (a
 * cursor in a database snapshot) never waits for the client, and what waits costs disk, not memory.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { whenClosed } from '../request-context/exchange';
import { SPOOL_READ_BYTES } from '../tunables';

/** The disk budget every answer of the process shares (SPOOL_DIR, SPOOL_MAX_MB), and what it has counted. */
export class SpoolStore {
  /** Bytes of answers on disk now. */
  bytes = 0;
  /** Answers cut because the budget was spent. */
  cut = 0;
  private ready: Promise<unknown> | undefined;

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {}

  /** A new file readable by its owner only, unlinked at once: it goes with its descriptor, even if the process dies. */
  async openFile(): Promise<FileHandle> {
    await (this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 }));
    const file = path.join(this.dir, `asmx-answer-${process.pid}-${randomBytes(8).toString('hex')}`);
    const handle = await open(file, 'wx+', 0o600);
    await unlink(file).catch(() => undefined);
    return handle;
  }

  reserve(bytes: number): boolean {
    if (this.bytes + bytes > this.maxBytes) return false;
    this.bytes += bytes;
    return true;
  }

  release(bytes: number): void {
    this.bytes -= bytes;
  }
}

/**
 * One answer's way to its client. write() waits for the disk at most, never for the client; end()
 * resolves once the last byte went to the socket, or the client went away.
 */
export class AnswerOutlet {
  aborted = false;
  /** The socket pushed back and has not drained since. */
  private blocked = false;
  private file: Promise<FileHandle> | undefined;
  /** Bytes written to the file, and of them those handed to the socket; the file's size is what the budget counts. */
  private inFile = 0;
  private fromFile = 0;
  private fileSize = 0;
  private producing = true;
  private wrote = false;
  private pumping: Promise<void> | undefined;
  /** Resolves the pump's wait (for a drain, more bytes, the end, or the client leaving). */
  private wake: (() => void) | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly store: SpoolStore,
  ) {
    // One listener each for the whole answer: compression moves 'drain' listeners onto its own
    // stream, where removing them again is not possible.
    res.on('drain', () => {
      this.blocked = false;
      this.wake?.();
    });
    whenClosed(res, () => {
      // A close before the last byte went out: the client hung up, or the connection was cut.
      if (!res.writableFinished) this.aborted = true;
      this.wake?.();
    });
  }

  async write(chunk: string | Buffer): Promise<void> {
    if (this.aborted) return;
    this.wrote = true;
    if (!this.blocked && this.inFile === this.fromFile) {
      this.blocked = !this.res.write(chunk);
      return;
    }
    await this.toFile(chunk);
  }

  /** Ends the answer with `last`: in the one write of the whole answer when nothing went out before. */
  async end(last?: string | Buffer): Promise<'complete' | 'aborted'> {
    if (last !== undefined && this.wrote) await this.write(last);
    const whole = this.wrote ? undefined : last;
    this.producing = false;
    if (this.pumping) {
      this.wake?.();
      await this.pumping;
    }
    if (this.aborted) return 'aborted';
    await new Promise<void>((resolve) => {
      // compression's end() takes no callback: wait for 'finish' (or 'close' when the client left).
      this.res.once('finish', resolve).once('close', resolve);
      if (whole === undefined) this.res.end();
      else this.res.end(whole);
    });
    return this.aborted ? 'aborted' : 'complete';
  }

  private async toFile(chunk: string | Buffer): Promise<void> {
    // All sent: the file is written from its start again.
    if (this.inFile === this.fromFile) this.inFile = this.fromFile = 0;
    this.pumping ??= this.pump();
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk, 'utf8') : chunk.length;
    const grow = this.inFile + length - this.fileSize;
    if (grow > 0 && !this.store.reserve(grow)) return this.cut();
    if (grow > 0) this.fileSize += grow;
    try {
      const file = await this.file!;
      // Text is written as text: node encodes it outside the JavaScript heap and frees it at once.
      if (typeof chunk === 'string') await file.write(chunk, this.inFile, 'utf8');
      else await file.write(chunk, 0, length, this.inFile);
    } catch (error) {
      this.cut();
      throw error;
    }
    this.inFile += length;
    this.wake?.();
  }

  /** Sends the file's bytes as the client takes them, then closes it and gives its budget back. */
  private async pump(): Promise<void> {
    this.file = this.store.openFile();
    let file: FileHandle | undefined;
    try {
      file = await this.file;
      for (;;) {
        if (this.aborted) return;
        const waiting = this.blocked || (this.fromFile === this.inFile && this.producing);
        if (waiting) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
          continue;
        }
        if (this.fromFile === this.inFile) return;
        const length = Math.min(SPOOL_READ_BYTES, this.inFile - this.fromFile);
        const { bytesRead, buffer } = await file.read(Buffer.allocUnsafe(length), 0, length, this.fromFile);
        if (this.aborted) return;
        this.blocked = !this.res.write(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
        this.fromFile += bytesRead;
      }
    } catch {
      this.cut();
    } finally {
      this.store.release(this.fileSize);
      this.fileSize = 0;
      await file?.close().catch(() => undefined);
    }
  }

  /** The answer cannot be delivered whole: the connection is cut, so the client never takes a part for the whole. */
  private cut(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.store.cut++;
    this.res.destroy();
    this.wake?.();
  }
}
