/**
 * What the import command prints: each reject as it is found, a line per file when it is done, and a
 * closing summary; every reject also goes to the rejects file (docs/import.md, "Report").
 */
import type { FileResult, ImportListener, RejectLine } from './import-run';
import type { RejectsFile } from './rejects-file';

export interface Output {
  write(text: string): unknown;
}

export function reportingListener(out: Output, rejects: RejectsFile): ImportListener {
  return {
    reject(r: RejectLine) {
      out.write(`REJECT ${r.file} line ${r.line}${r.column ? `, ${r.column}` : ''}: ${r.reason}\n`);
      rejects.add(r.file, r.line, r.column, r.reason);
    },
    fileDone(result: FileResult) {
      out.write(fileLine(result));
      if (result.status === 'failed') rejects.add(result.file, '', '', `the file was not loaded (rolled back): ${result.error}`);
    },
  };
}

function fileLine(r: FileResult): string {
  if (r.status === 'refused') return `${r.file}: not loaded, its header is not usable\n`;
  if (r.status === 'failed') return `${r.file}: FAILED and rolled back, nothing of it is stored: ${r.error}\n`;
  return `${r.file}: read ${r.read}, inserted ${r.inserted}, updated ${r.updated}, rejected ${r.rejected}\n`;
}

export function summary(results: FileResult[], rejects: RejectsFile, dryRun: boolean): string {
  const total = (k: 'read' | 'inserted' | 'updated' | 'rejected') => results.reduce((n, r) => n + r[k], 0);
  const notLoaded = results.filter((r) => r.status !== 'loaded').map((r) => r.file);
  return [
    `${results.length} file(s): read ${total('read')}, inserted ${total('inserted')}, updated ${total('updated')}, rejected ${total('rejected')}` +
      (dryRun ? ' (dry run: nothing was written to the database)' : ''),
    notLoaded.length > 0 ? `not loaded: ${notLoaded.join(', ')}` : '',
    `rejects: ${rejects.count} line(s) in ${rejects.path}`,
  ].filter(Boolean).join('\n') + '\n';
}
