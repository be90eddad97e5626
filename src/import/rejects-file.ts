/**
 * <dir>/import-rejects.csv: one line per reason a row (or a file) was not loaded, as file, line,
 * column, reason, in the same CSV dialect as the import files. Rewritten by every run, so it always
 * describes the last one (a run without rejects leaves just the header).
 */
import fs from 'node:fs';
import { REJECTS_FLUSH_BYTES } from '../tunables';

export class RejectsFile {
  private readonly fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  count = 0;

  constructor(readonly path: string) {
    this.fd = fs.openSync(path, 'w');
    this.append(['file', 'line', 'column', 'reason']);
    this.count = 0;
  }

  add(file: string, line: number | '', column: string, reason: string): void {
    this.append([file, String(line), column, reason]);
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }

  private append(fields: string[]): void {
    const text = fields.map(csvField).join(',') + '\r\n';
    this.pending.push(text);
    this.pendingBytes += text.length;
    this.count++;
    if (this.pendingBytes >= REJECTS_FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    fs.writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
