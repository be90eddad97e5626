/**
 * npm run export -- <dir>
 *
 * Writes the database of DATABASE_URL into <dir> as the import reads it (docs/import.md, "Export"):
 * one CSV file per table, from one consistent snapshot, while the server may keep running.
 * Exit codes: 0 written, 1 failed, 2 bad arguments or settings.
 */
import { withMigratedEngine } from '../src/db/migrate';
import { exportData } from '../src/import/export';
import { consoleOutput, exitWithMain, settingsOrSay, type Output } from './output';

const USAGE = 'usage: npm run export -- <dir>   (the database is DATABASE_URL, default sqlite:./data/mobileapp.db)';

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = consoleOutput,
): Promise<number> {
  if (argv.length !== 1 || argv[0].startsWith('-')) {
    io.err(USAGE);
    return 2;
  }
  const settings = settingsOrSay('export', env, io);
  if (settings === undefined) return 2;
  const databaseUrl = settings.databaseUrl;
  const started = Date.now();
  try {
    const files = await withMigratedEngine(databaseUrl, (engine) =>
      exportData(engine.db, argv[0], (file) =>
        io.out(`${file.file.padEnd(30)} ${String(file.rows).padStart(10)} rows`),
      ),
    );
    const rows = files.reduce((sum, file) => sum + file.rows, 0);
    io.out(
      `exported ${rows} rows in ${files.length} files to ${argv[0]} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  } catch (err) {
    io.err(`export: ${(err as Error).message}`);
    return 1;
  }
}

if (require.main === module) exitWithMain('export', main);
