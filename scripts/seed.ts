/**
 * npm run seed -- [--scale N] [--as-of yyyy-MM-dd] [--reset]
 *
 * Fills the database named by DATABASE_URL (default: the embedded sqlite:./data/mobileapp.db) with
 * the deterministic demo data: migrations first, then, with --reset, every table emptied; prints a
 * line per table and the time taken. Exit codes: 0 done, 1 failed (e.g. database not empty), 2 bad
 * arguments or settings.
 */
import { loadSettings } from '../src/config';
import { withMigratedEngine } from '../src/db/migrate';
import { clearDatabase, DatabaseNotEmptyError, MAX_SCALE, seed, type SeedSummary } from '../src/demo-data';
import { parseDay } from '../src/demo-data/calendar';
import { dateOf } from '../src/operations/parse';
import { consoleOutput, readOrSay, UsageError, type Output } from './output';

const USAGE = 'usage: npm run seed -- [--scale N] [--as-of yyyy-MM-dd] [--reset]';

export interface SeedArguments {
  scale: number;
  asOf: string;
  reset: boolean;
}

export function parseArguments(argv: string[], today: string = dateOf(new Date())): SeedArguments {
  const args: SeedArguments = { scale: 1, asOf: today, reset: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=') ? splitOnce(argv[i]) : [argv[i], undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--scale':
        args.scale = parseScale(value());
        break;
      case '--as-of':
        args.asOf = parseAsOf(value());
        break;
      case '--reset':
        if (inline !== undefined) throw new UsageError('--reset takes no value');
        args.reset = true;
        break;
      default:
        throw new UsageError(`unknown argument '${argv[i]}'`);
    }
  }
  return args;
}

function splitOnce(arg: string): [string, string] {
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function parseScale(text: string): number {
  const n = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || !(n > 0) || n > MAX_SCALE) {
    throw new UsageError(`--scale: '${text}' is not a positive number up to ${MAX_SCALE} (1 = ~3,000 customers)`);
  }
  return n;
}

function parseAsOf(text: string): string {
  if (parseDay(text) === undefined) throw new UsageError(`--as-of: '${text}' is not a date (use yyyy-MM-dd)`);
  return text;
}

export type { Output } from './output';

/** Runs the command; resolves to the process exit code. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = consoleOutput,
): Promise<number> {
  const read = readOrSay('seed', io, () => ({ args: parseArguments(argv), settings: loadSettings(env) }), USAGE);
  if (!read) return 2;
  const {
    args,
    settings: { databaseUrl, fiscalYearStartMonth },
  } = read;
  try {
    return await withMigratedEngine(databaseUrl, async (engine) => {
      if (args.reset) await clearDatabase(engine);
      const summary = await seed(engine, { scale: args.scale, asOf: args.asOf, fiscalYearStartMonth });
      report(io, summary, engine.describe);
      return 0;
    });
  } catch (err) {
    io.err(`seed: ${(err as Error).message}`);
    if (err instanceof DatabaseNotEmptyError) io.err('seed: run again with --reset to replace the data');
    return 1;
  }
}

function report(io: Output, summary: SeedSummary, target: string): void {
  for (const [table, count] of Object.entries(summary.rows)) {
    io.out(`${table.padEnd(24)} ${count.toLocaleString('en-US').padStart(10)} rows`);
  }
  io.out(
    `seeded ${summary.totalRows.toLocaleString('en-US')} rows (scale ${summary.scale}, ${summary.from} to ${summary.asOf}) ` +
      `into ${target} in ${(summary.millis / 1000).toFixed(1)} s`,
  );
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`seed: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
