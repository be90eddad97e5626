/** The plain report: one line per check (printed as each ends), then a summary line; and the same as JSON. */
import type { CheckReport, CheckResult } from './types';

export function resultLine(result: CheckResult): string {
  const mark = result.status === 'pass' ? 'PASS' : 'FAIL';
  const extension = result.extension ? ' [extension]' : '';
  const detail = result.detail ? `\n       ${result.detail}` : '';
  return `${mark} ${result.id}${extension}: ${result.title}${detail}`;
}

export function summaryLine(report: CheckReport): string {
  const leftOut = report.leftOut > 0 ? `, ${report.leftOut} extension checks left out` : '';
  const verdict = report.failed === 0 ? 'the server meets the contract' : 'the server does NOT meet the contract';
  return `${report.results.length} checks against ${report.options.baseUrl}${report.options.basePath}: ${report.passed} passed, ${report.failed} failed${leftOut}; ${verdict}`;
}

export function jsonReport(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
