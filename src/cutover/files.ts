/**
 * The files the migration tools write that hold requests and answers (differences.jsonl, the
 * summaries, a recording): readable by their owner only, whether new or already there, and the
 * growing ones capped by a size budget, what does not fit counted rather than written.
 */
import fs from 'node:fs';

const OWNER_ONLY = 0o600;

/** Opens `file` for writing from its start, its mode made owner-only (open's mode applies only to a new file). */
function openOwnerOnly(file: string): number {
  const fd = fs.openSync(file, 'w', OWNER_ONLY);
  fs.fchmodSync(fd, OWNER_ONLY);
  return fd;
}

/** Replaces `file` whole through a temporary file, so a reader never sees half of it. */
export function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openOwnerOnly(temporary);
  try {
    fs.writeFileSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}

/** A file written piece by piece up to `maxBytes`; pieces past it are counted in `dropped`. */
export class CappedFile {
  dropped = 0;
  private written = 0;
  private readonly stream: fs.WriteStream;

  constructor(
    file: string,
    private readonly maxBytes: number,
  ) {
    this.stream = fs.createWriteStream(file, { fd: openOwnerOnly(file) });
  }

  /** Writes `text` if it fits what is left of the budget; false (and counted) if not. */
  write(text: string): boolean {
    const bytes = Buffer.byteLength(text);
    if (this.written + bytes > this.maxBytes) {
      this.dropped += 1;
      return false;
    }
    this.written += bytes;
    this.stream.write(text);
    return true;
  }

  /** Ends the file, `tail` (outside the budget) written last. */
  close(tail = ''): Promise<void> {
    return new Promise((resolve) => this.stream.end(tail, resolve));
  }
}
