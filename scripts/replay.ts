/**
 * npm run replay -- <file.har> --target <url> [--out <dir>] [--concurrency N] [--host <name>]
 *                   [--include-writes] [--ignore <path>]... [--ca <file>] [--insecure]
 *
 * Sends every request of a HAR recording to the target and compares each answer with the recorded one
 * (docs/migration.md, "Replay"), writing the report in --out (default ./replay-report).
 * Exit codes: 0 nothing differs, 1 something does, 2 bad arguments or a file that is not HAR (nothing sent).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { HarError, readHar, replay, type Recorded, type ReplayOptions } from '../src/migration/replay';
import { SHADOW_DEFAULTS } from '../src/migration/shadow';
import { consoleOutput, exitWithMain, type Output } from './output';

const USAGE = 'usage: npm run replay -- <file.har> --target <url> [--out <dir>] [--concurrency N] [--host <name>] [--include-writes] [--ignore <path>]... [--ca <file>] [--insecure]';

function replayArguments(argv: string[]): { file: string; options: ReplayOptions } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      out: { type: 'string' },
      concurrency: { type: 'string' },
      host: { type: 'string' },
      'include-writes': { type: 'boolean' },
      ignore: { type: 'string', multiple: true },
      ca: { type: 'string' },
      insecure: { type: 'boolean' },
    },
    strict: true,
  });
  if (positionals.length !== 1) throw new Error('one HAR file is required');
  if (values.target === undefined || !/^https?:\/\/[^/]/.test(values.target)) throw new Error('--target <http or https URL> is required');
  const concurrency = values.concurrency === undefined ? 4 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new Error(`--concurrency ${values.concurrency}: a whole number from 1 to 256`);
  return {
    file: positionals[0],
    options: {
      target: values.target,
      out: values.out ?? './replay-report',
      concurrency,
      host: values.host,
      includeWrites: values['include-writes'] ?? false,
      ignore: values.ignore ?? [],
      ca: values.ca === undefined ? undefined : fs.readFileSync(values.ca),
      insecure: values.insecure ?? false,
      captureBytes: SHADOW_DEFAULTS.captureBytes,
      timeoutMs: SHADOW_DEFAULTS.timeoutMs,
      maxFileBytes: SHADOW_DEFAULTS.maxFileBytes,
    },
  };
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  let file: string;
  let options: ReplayOptions;
  let recording: Recorded[];
  try {
    ({ file, options } = replayArguments(argv));
    recording = readHar(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    io.err(`replay: ${err instanceof HarError ? `${argv.find((a) => !a.startsWith('-'))}: ` : ''}${(err as Error).message}`);
    if (!(err instanceof HarError)) io.err(USAGE);
    return 2;
  }
  const report = await replay(recording, options);
  const rows = report.summary().operations;
  const total = (what: 'compared' | 'same' | 'different' | 'expected' | 'skipped' | 'notMirrored' | 'candidateErrors') => rows.reduce((sum, row) => sum + row[what], 0);
  io.out(`replay: ${file}: ${total('compared')} compared, ${total('same')} same, ${total('different')} different, ${total('expected')} expected, ${total('candidateErrors')} failed, ${total('notMirrored')} writes not sent, ${total('skipped')} skipped; report in ${options.out}`);
  return total('different') > 0 || total('candidateErrors') > 0 ? 1 : 0;
}

if (require.main === module) exitWithMain('replay', main);
