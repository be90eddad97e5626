/**
 * The report of a shadow or replay run (docs/cutover.md, "The report"), in one folder:
 * summary.json (counts per operation and binding), differences.jsonl (one line per differing
 * exchange) and summary.html (the same for people, readable without a server). The summaries are
 * rewritten whole, each through a temporary file, so a reader never sees half of one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { redactedUrl } from '../config';
import { REDACTED, withoutPasswords, withoutSecretHeaders } from './credentials';
import { CappedFile, writeWhole } from './files';
import type { Verdict } from './compare';
import type { Call, RequestHead } from './traffic';

/**
 * compared = same + different + expected; noisy: compared with a noisy field left out; byDigest:
 * compared by length and digest; notSampled: a read left out by --sample; dropped: not mirrored for
 * want of room in the queue; notInContract:
 * one server has no such thing (the v2 contract, the OpenAPI document); skipped: a replay's entry for
 * another host or without a recorded answer.
 */
export type Count =
  | 'compared'
  | 'same'
  | 'different'
  | 'expected'
  | 'noisy'
  | 'byDigest'
  | 'candidateErrors'
  | 'notMirrored'
  | 'notSampled'
  | 'dropped'
  | 'notInContract'
  | 'skipped';

const COUNTS: readonly Count[] = [
  'compared',
  'same',
  'different',
  'expected',
  'noisy',
  'byDigest',
  'candidateErrors',
  'notMirrored',
  'notSampled',
  'dropped',
  'notInContract',
  'skipped',
];

export interface OperationSummary extends Record<Count, number> {
  service: string;
  contract: Call['contract'];
  operation: string;
  binding: Call['binding'];
  noisyFields: string[];
  /** Deliberate differences seen, by rule (expected.ts). */
  expectedRules: Record<string, number>;
}

/** How many differing exchanges each operation and binding keeps as examples for summary.html. */
const EXAMPLES = 3;

export interface ReportOptions {
  /** The fields learnt to be noisy for a row's key. */
  noisyFields?: (key: string) => string[];
  /** differences.jsonl stops growing at this size; later lines are counted in `overBudget`. */
  maxFileBytes: number;
}

/** Lines or entries left out of a file for want of room in its budget (ReportOptions.maxFileBytes), by file. */
export interface OverBudget {
  differences: number;
  recording?: number;
}

export class Report {
  private readonly rows = new Map<string, OperationSummary>();
  private readonly examples = new Map<string, object[]>();
  private readonly differences: CappedFile;
  private readonly noisyFields: (key: string) => string[];
  private recording: { readonly dropped: number } | undefined;

  constructor(
    readonly dir: string,
    options: ReportOptions,
  ) {
    // A folder it creates is its owner's alone, as the files in it are.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.differences = new CappedFile(path.join(dir, 'differences.jsonl'), options.maxFileBytes);
    this.noisyFields = options.noisyFields ?? (() => []);
  }

  /** A recording of the same run, whose entries left out are shown in the summary too. */
  track(recording: { readonly dropped: number }): void {
    this.recording = recording;
  }

  count(call: Call, what: Count): void {
    this.row(call)[what] += 1;
  }

  /** One compared exchange and what the comparison found. */
  record(call: Call, request: RequestHead & { body: Buffer }, statuses: [number, number], verdict: Verdict): void {
    const row = this.row(call);
    row.compared += 1;
    row[verdict.outcome] += 1;
    if (verdict.byDigest) row.byDigest += 1;
    if (verdict.noisy.length > 0) row.noisy += 1;
    if (verdict.rule !== undefined) row.expectedRules[verdict.rule] = (row.expectedRules[verdict.rule] ?? 0) + 1;
    if (verdict.outcome !== 'different') return;
    const line = {
      time: new Date().toISOString(),
      service: call.service,
      contract: call.contract,
      operation: call.operation,
      binding: call.binding,
      request: safeRequest(request),
      status: { primary: statuses[0], candidate: statuses[1] },
      differences: verdict.differences.slice(0, 100).map((d) => `${d.path}: ${d.primary} / ${d.candidate}`),
    };
    this.differences.write(`${JSON.stringify(line)}\n`);
    const examples = this.examples.get(keyOf(call)) ?? [];
    if (examples.length < EXAMPLES) this.examples.set(keyOf(call), [...examples, line]);
  }

  summary(): { operations: OperationSummary[]; overBudget: OverBudget } {
    const operations = [...this.rows.entries()].map(([key, row]) => ({ ...row, noisyFields: this.noisyFields(key) }));
    operations.sort((a, b) =>
      `${a.service}/${a.operation}/${a.binding}`.localeCompare(`${b.service}/${b.operation}/${b.binding}`),
    );
    const overBudget: OverBudget = { differences: this.differences.dropped };
    if (this.recording !== undefined) overBudget.recording = this.recording.dropped;
    return { operations, overBudget };
  }

  /** Prometheus text: the counts by operation, binding and outcome. */
  metrics(): string {
    const lines = [
      '# HELP shadow_exchanges_total Exchanges by operation, binding and outcome.',
      '# TYPE shadow_exchanges_total counter',
    ];
    for (const row of this.summary().operations) {
      for (const what of COUNTS) {
        const labels = `service="${row.service}",contract="${row.contract}",operation="${escapeLabel(row.operation)}",binding="${row.binding}",outcome="${what}"`;
        lines.push(`shadow_exchanges_total{${labels}} ${row[what]}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }

  /** Rewrites summary.json and summary.html. */
  write(): void {
    const summary = this.summary();
    writeWhole(path.join(this.dir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeWhole(path.join(this.dir, 'summary.html'), summaryHtml(summary, this.examples));
  }

  async close(): Promise<void> {
    this.write();
    await this.differences.close();
  }

  private row(call: Call): OperationSummary {
    const key = keyOf(call);
    let row = this.rows.get(key);
    if (row === undefined) {
      row = {
        service: call.service,
        contract: call.contract,
        operation: call.operation,
        binding: call.binding,
        noisyFields: [],
        expectedRules: {},
        ...zeroCounts(),
      };
      this.rows.set(key, row);
    }
    return row;
  }
}

/** What identifies an operation and binding, in the report and for the noise learnt. */
export function keyOf(call: Pick<Call, 'service' | 'contract' | 'operation' | 'binding'>): string {
  return `${call.service}|${call.contract}|${call.operation}|${call.binding}`;
}

function zeroCounts(): Record<Count, number> {
  return Object.fromEntries(COUNTS.map((what) => [what, 0])) as Record<Count, number>;
}

/** The request as a report shows it: credentials.ts leaves out what could authenticate. */
function safeRequest(request: RequestHead & { body: Buffer }): object {
  const body =
    request.body.length > 4096
      ? `${request.body.subarray(0, 4096).toString('utf8')}...`
      : request.body.toString('utf8');
  return {
    method: request.method,
    url: redactedUrl(request.url, REDACTED),
    headers: withoutSecretHeaders(request.headers),
    body: withoutPasswords(body),
  };
}

function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function summaryHtml(
  { operations: rows, overBudget }: ReturnType<Report['summary']>,
  examples: ReadonlyMap<string, object[]>,
): string {
  const cells = (row: OperationSummary) => COUNTS.map((what) => `<td>${row[what]}</td>`).join('');
  const body = rows
    .map((row) => {
      const shown = examples.get(keyOf(row)) ?? [];
      const details = [
        row.noisyFields.length > 0 ? `<p>Noisy fields: ${escapeHtml(row.noisyFields.join(', '))}</p>` : '',
        Object.keys(row.expectedRules).length > 0
          ? `<p>Deliberate differences: ${escapeHtml(
              Object.entries(row.expectedRules)
                .map(([rule, n]) => `${rule} (${n})`)
                .join(', '),
            )}</p>`
          : '',
        ...shown.map((example) => `<pre>${escapeHtml(JSON.stringify(example, null, 2))}</pre>`),
      ].join('');
      return `<tr><th>${escapeHtml(`${row.service} ${row.contract}`)}</th><th>${escapeHtml(row.operation)}</th><th>${row.binding}</th>${cells(row)}</tr>${details === '' ? '' : `<tr><td colspan="${COUNTS.length + 3}">${details}</td></tr>`}`;
    })
    .join('\n');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Shadow comparison</title>
<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}pre{white-space:pre-wrap;font-size:90%}</style></head>
<body><h1>Shadow comparison</h1><p>Written ${new Date().toISOString()}.</p>${overBudgetHtml(overBudget)}
<table><tr><th>service</th><th>operation</th><th>binding</th>${COUNTS.map((what) => `<th>${what}</th>`).join('')}</tr>
${body}
</table></body></html>
`;
}

function overBudgetHtml(overBudget: OverBudget): string {
  const lines = [
    overBudget.differences > 0
      ? `${overBudget.differences} differing exchanges were left out of differences.jsonl: it reached its size budget.`
      : '',
    (overBudget.recording ?? 0) > 0
      ? `${overBudget.recording} exchanges were left out of the recording: it reached its size budget.`
      : '',
  ];
  return lines
    .filter((line) => line !== '')
    .map((line) => `<p><strong>${line}</strong></p>`)
    .join('');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
