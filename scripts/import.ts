/**
 * npm run import -- <dir> [--dry-run]
 *
 * Loads the legacy database's CSV export in <dir> into the database of DATABASE_URL (docs/import.md).
 * Exit code: 0 everything loaded, 1 a row was rejected or a file not loaded, 2 bad arguments.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SettingsError, loadSettings, type Settings } from '../src/config';
import { openEngine, type Engine } from '../src/db/engine';
import { migrate } from '../src/db/migrate';
import { REJECTS_FILE, findImportFiles, type ImportFile } from '../src/import/import-files';
import { reportingListener, summary, type Output } from '../src/import/import-report';
import { runImport, type FileResult } from '../src/import/import-run';
import { RejectsFile } from '../src/import/rejects-file';

const USAGE =
  'usage: npm run import -- <dir> [--dry-run] [--quiet]\n' +
  '  <dir>      a directory of CSV files named after the tables (zones.csv, customers.csv, ...; docs/import.md)\n' +
  '  --dry-run  validate and report without writing to the database\n' +
  '  --quiet    no progress lines while a file loads\n' +
  'The database is DATABASE_URL (default sqlite:./data/mobileapp.db).\n';

export const EXIT = { ok: 0, rejected: 1, badArguments: 2 } as const;

interface Arguments {
  dir: string;
  dryRun: boolean;
  quiet: boolean;
}

export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: { out: Output; err: Output } = { out: process.stdout, err: process.stderr },
): Promise<number> {
  const args = parseArguments(argv);
  if (args === 'help') {
    io.out.write(USAGE);
    return EXIT.ok;
  }
  if (typeof args === 'string') {
    io.err.write(`${args}\n${USAGE}`);
    return EXIT.badArguments;
  }
  let settings: Settings;
  try {
    settings = loadSettings(env);
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    io.err.write(`${err.message}\n`);
    return EXIT.badArguments;
  }
  const { files, ignored } = findImportFiles(args.dir);
  for (const name of ignored) io.out.write(`${name}: ignored, not named after a table\n`);
  if (files.length === 0) {
    io.err.write(`${args.dir} holds no file named after a table (zones.csv, customers.csv, ...; see docs/import.md)\n`);
    return EXIT.badArguments;
  }
  return importFiles(args, settings, files, io);
}

async function importFiles(
  args: Arguments,
  settings: Settings,
  files: ImportFile[],
  io: { out: Output; err: Output },
): Promise<number> {
  const rejects = new RejectsFile(path.join(args.dir, REJECTS_FILE));
  let engine: Engine | undefined;
  try {
    // Every read of an import runs inside its file's transaction, on the writer: reader threads would only take memory.
    engine = openEngine(settings.databaseUrl, { sqliteReaders: 0 });
    io.out.write(
      `importing ${files.map((f) => f.name).join(', ')} into ${engine.describe}${args.dryRun ? ' (dry run)' : ''}\n`,
    );
    await migrate(engine);
    // A progress line rewritten in place on a terminal, plain lines now and then in a log or a pipe.
    const style = args.quiet ? 'quiet' : (io.out as { isTTY?: boolean }).isTTY === true ? 'terminal' : 'lines';
    const results = await runImport(
      engine,
      files,
      { dryRun: args.dryRun, dateOrder: settings.dateOrder },
      reportingListener(io.out, rejects, style),
    );
    io.out.write(summary(results, rejects, args.dryRun));
    return allLoaded(results) ? EXIT.ok : EXIT.rejected;
  } catch (err) {
    io.err.write(`import failed: ${(err as Error).message ?? String(err)}\n`);
    rejects.add('', '', '', `import failed: ${(err as Error).message ?? String(err)}`);
    return EXIT.rejected;
  } finally {
    rejects.close();
    await engine?.close();
  }
}

function allLoaded(results: FileResult[]): boolean {
  return results.every((r) => r.status === 'loaded' && r.rejected === 0);
}

/** The arguments, 'help', or why they cannot be used. */
function parseArguments(argv: string[]): Arguments | string {
  const positional: string[] = [];
  let dryRun = false;
  let quiet = false;
  for (const arg of argv) {
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--quiet') quiet = true;
    else if (arg === '--help' || arg === '-h') return 'help';
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else positional.push(arg);
  }
  if (positional.length !== 1)
    return positional.length === 0
      ? 'the directory to import is missing'
      : `one directory expected, got ${positional.length}`;
  const dir = positional[0];
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return `${dir} is not a directory`;
  return { dir, dryRun, quiet };
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`import failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = EXIT.rejected;
    },
  );
}
