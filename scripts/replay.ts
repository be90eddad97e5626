/**
 * npm run replay -- <file.har> --candidate <url> [--out <dir>] [--concurrency 4] [--recorded-host <name>]
 *                   [--mirror-writes] ... (scripts/cutover-options.ts)
 *
 * Sends every request of a HAR recording to the candidate and compares each answer with the recorded
 * one (docs/cutover.md, "Replay"), writing the report in --out (default ./replay-report).
 * Exit codes: 0 nothing differs, 1 something does or another failure (named), 2 bad arguments or a file
 * that cannot be read as HAR (nothing sent).
 */
import fs from 'node:fs';
import { readHar, replay, type Recorded, type ReplayOptions } from '../src/cutover/replay';
import { SHADOW_DEFAULTS } from '../src/cutover/shadow';
import {
  flag,
  list,
  maxFileBytes,
  number,
  parseOptions,
  serverSettings,
  text,
  tls,
  url,
  usage,
} from './cutover-options';
import { consoleOutput, exitWithMain, readOrSay, UsageError, type Output } from './output';

const USAGE = usage('replay');

function replayArguments(argv: string[]): { file: string; options: ReplayOptions } {
  const parsed = parseOptions('replay', argv);
  if (parsed.positionals.length !== 1) throw new UsageError('one HAR file is required');
  return {
    file: parsed.positionals[0],
    options: {
      ...tls(parsed),
      target: url(parsed, 'candidate', true)!,
      out: text(parsed, 'out') ?? './replay-report',
      concurrency: number(parsed, 'concurrency', SHADOW_DEFAULTS.concurrency, { min: 1, max: 256, whole: true }),
      host: text(parsed, 'recorded-host'),
      includeWrites: flag(parsed, 'mirror-writes'),
      ignore: list(parsed, 'ignore'),
      captureBytes: SHADOW_DEFAULTS.captureBytes,
      timeoutMs: SHADOW_DEFAULTS.timeoutMs,
      maxFileBytes: maxFileBytes(parsed, SHADOW_DEFAULTS.maxFileBytes),
      serverSettings: serverSettings(parsed),
      rate:
        text(parsed, 'rate') === undefined
          ? undefined
          : number(parsed, 'rate', 0, { min: 0.001, max: 1_000_000, whole: false }),
    },
  };
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  const read = readOrSay('replay', io, () => replayArguments(argv), USAGE);
  if (read === undefined) return 2;
  const { file, options } = read;
  let recording: Recorded[];
  try {
    recording = readHar(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    // Not HAR, or not readable: nothing is sent, and the message names the file.
    io.err(`replay: ${file}: ${(err as Error).message}`);
    return 2;
  }
  const report = await replay(recording, options);
  const rows = report.summary().operations;
  const total = (
    what: 'compared' | 'same' | 'different' | 'expected' | 'skipped' | 'notMirrored' | 'candidateErrors',
  ) => rows.reduce((sum, row) => sum + row[what], 0);
  io.out(
    `replay: ${file}: ${total('compared')} compared, ${total('same')} same, ${total('different')} different, ${total('expected')} expected, ${total('candidateErrors')} failed, ${total('notMirrored')} writes not sent, ${total('skipped')} skipped; report in ${options.out}`,
  );
  return total('different') > 0 || total('candidateErrors') > 0 ? 1 : 0;
}

if (require.main === module) exitWithMain('replay', main);
