/**
 * What the import command prints: each reject as it is found, progress while a file loads, a line per
 * file when it is done, and a closing summary; every reject also goes to the rejects file
 * (docs/import.md, "Report").
 */
import type { FileResult, ImportListener, RejectLine } from './import-run';
import type { RejectsFile } from './rejects-file';

export interface Output {
  write(text: string): unknown;
}

/**
 * How progress is shown: `terminal` rewrites one line in place; `lines` prints a plain line now and
 * then (a log, a pipe); `quiet` shows none.
 */
export type ProgressStyle = 'terminal' | 'lines' | 'quiet';

/** How often progress is shown, in milliseconds. */
const SHOWN_EVERY = { terminal: 250, lines: 10_000 } as const;

export function reportingListener(
  out: Output,
  rejects: RejectsFile,
  style: ProgressStyle = 'quiet',
  now: () => number = Date.now,
): ImportListener {
  let started = { file: '', at: 0 };
  let shown = 0;
  // On a terminal the progress line is rewritten in place, and cleared before any other line.
  const clear = style === 'terminal' ? '\r\u001b[K' : '';
  return {
    reject(r: RejectLine) {
      out.write(`${clear}REJECT ${r.file} line ${r.line}${r.column ? `, ${r.column}` : ''}: ${r.reason}\n`);
      rejects.add(r.file, r.line, r.column, r.reason);
    },
    progress(file, rows, bytes, size) {
      if (style === 'quiet') return;
      const at = now();
      if (started.file !== file) started = { file, at };
      if (rows === 0 || at - shown < SHOWN_EVERY[style]) return;
      shown = at;
      const line = progressLine(file, rows, bytes, size, (at - started.at) / 1000);
      out.write(style === 'terminal' ? `${clear}${line}` : `${line}\n`);
    },
    fileDone(result: FileResult) {
      out.write(`${clear}${fileLine(result)}`);
      if (result.status === 'failed')
        rejects.add(result.file, '', '', `the file was not loaded (rolled back): ${result.error}`);
    },
  };
}

/** `<file>: <rows> rows, <rate> rows/s, <n> s left`: the time left from the share of the file's bytes read. */
export function progressLine(file: string, rows: number, bytes: number, size: number, seconds: number): string {
  const rate = seconds > 0 ? Math.round(rows / seconds) : 0;
  const left = bytes > 0 && size > 0 ? Math.max(0, Math.round((seconds * (size - bytes)) / bytes)) : undefined;
  return `${file}: ${rows.toLocaleString('en-US')} rows, ${rate.toLocaleString('en-US')} rows/s${left === undefined ? '' : `, ${left} s left`}`;
}

function fileLine(r: FileResult): string {
  if (r.status === 'refused') return `${r.file}: not loaded, its header is not usable\n`;
  if (r.status === 'failed') return `${r.file}: FAILED and rolled back, nothing of it is stored: ${r.error}\n`;
  return `${r.file}: read ${r.read}, inserted ${r.inserted}, updated ${r.updated}, rejected ${r.rejected}\n`;
}

export function summary(results: FileResult[], rejects: RejectsFile, dryRun: boolean): string {
  const total = (k: 'read' | 'inserted' | 'updated' | 'rejected') => results.reduce((n, r) => n + r[k], 0);
  const notLoaded = results.filter((r) => r.status !== 'loaded').map((r) => r.file);
  return (
    [
      `${results.length} file(s): read ${total('read')}, inserted ${total('inserted')}, updated ${total('updated')}, rejected ${total('rejected')}` +
        (dryRun ? ' (dry run: nothing was written to the database)' : ''),
      notLoaded.length > 0 ? `not loaded: ${notLoaded.join(', ')}` : '',
      `rejects: ${rejects.count} line(s) in ${rejects.path}`,
    ]
      .filter(Boolean)
      .join('\n') + '\n'
  );
}
