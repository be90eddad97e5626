/**
 * npm run summaries -- rebuild | check
 *
 * The reports' summary data (docs/summaries.md) in the database named by DATABASE_URL:
 *   rebuild  derives every summary row anew from the raw rows, in one transaction (after a manual
 *            SQL fix of invoices, orders, receipts or ledger entries);
 *   check    says whether the stored summaries equal what the raw rows give, table by table,
 *            without changing anything.
 * Exit codes: 0 done (check: in step), 1 failed (check: out of step), 2 bad arguments or settings.
 */
import { sql } from 'kysely';
import { withMigratedEngine } from '../src/db/migrate';
import { checkSummaries } from '../src/summaries/check';
import { rebuildSummaries } from '../src/summaries/upkeep';
import { consoleOutput, settingsOrSay, type Output } from './output';

const USAGE = 'usage: npm run summaries -- rebuild | check';

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = consoleOutput,
): Promise<number> {
  const command = argv[0];
  if (argv.length !== 1 || (command !== 'rebuild' && command !== 'check')) {
    io.err(USAGE);
    return 2;
  }
  const settings = settingsOrSay('summaries', env, io);
  if (settings === undefined) return 2;
  const databaseUrl = settings.databaseUrl;
  try {
    return await withMigratedEngine(databaseUrl, async (engine) => {
      const started = Date.now();
      if (command === 'rebuild') {
        await engine.db.transaction().execute((trx) => rebuildSummaries(trx));
        // Fresh statistics for the query planners, as after seeding: the summary tables were rewritten.
        await sql`analyze`.execute(engine.db);
        io.out(`rebuilt the summary data of ${engine.describe} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return 0;
      }
      const check = await checkSummaries(engine.db);
      for (const t of check.tables) {
        const state =
          t.extra === 0 && t.missing === 0
            ? 'in step'
            : `OUT OF STEP: ${t.extra} stored rows the raw rows do not give, ${t.missing} rows missing`;
        io.out(`${t.table.padEnd(28)} ${String(t.rows).padStart(10)} rows  ${state}`);
      }
      for (const f of check.facts)
        io.out(
          `${f.name.padEnd(28)} OUT OF STEP: stored ${f.stored ?? '(none)'}, the raw rows give ${f.derived ?? '(none)'}`,
        );
      io.out(
        check.inStep
          ? 'the summary data is in step with the raw rows'
          : 'the summary data is out of step: run `npm run summaries -- rebuild`',
      );
      return check.inStep ? 0 : 1;
    });
  } catch (err) {
    io.err(`summaries: ${(err as Error).message}`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`summaries: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
