/**
 * The demo data of a first start is written by a process of its own, the server's program run again in
 * this role (as node:cluster runs its workers): generating it takes half a gigabyte, which the process
 * that made it would keep for its whole life (docs/operations.md, "Memory").
 */
import { fork } from 'node:child_process';
import type { Settings } from '../config';
import type { Engine } from '../db/engine';
import type { SeedSummary } from '../demo-data';

/** The demo data of a first start, scale 1, into an empty database; null when it holds data. */
export async function seedFirstStart(engine: Engine, settings: Settings): Promise<SeedSummary | null> {
  const { seedIfEmpty } = await import('../demo-data');
  return seedIfEmpty(engine, { scale: 1, fiscalYearStartMonth: settings.fiscalYearStartMonth });
}

/** Set in the child's environment: it seeds and exits instead of serving. */
const ROLE = 'MOBILEAPP_SEED_CHILD';

export function isSeedChild(): boolean {
  return process.env[ROLE] === '1';
}

/** The child's part: seed the empty database, hand the summary (or null: it held data) to the parent. */
export async function runSeedChild(settings: Settings): Promise<void> {
  // A server gone (killed) wants no data: the seed's one transaction is rolled back.
  const orphaned = () => process.exit(1);
  process.once('disconnect', orphaned);
  // Loaded here: main.ts imports this module before tracing starts, which must see pg load first.
  const { withMigratedEngine } = await import('../db/migrate');
  const summary = await withMigratedEngine(settings.databaseUrl, (engine) => seedFirstStart(engine, settings));
  await new Promise<void>((resolve, reject) =>
    process.send!({ summary, pid: process.pid }, (error: Error | null) => (error ? reject(error) : resolve())),
  );
  process.off('disconnect', orphaned);
  process.disconnect();
}

export interface ChildSeedSummary {
  summary: SeedSummary | null;
  /** The child's process id, for the log. */
  pid: number;
}

/** Runs this program again as the seeding child and resolves with what it seeded; rejects if it fails. */
export function seedInChildProcess(): Promise<ChildSeedSummary> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1], process.argv.slice(2), {
      env: { ...process.env, [ROLE]: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: ChildSeedSummary | undefined;
    child.once('message', (message) => (result = message as ChildSeedSummary));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0 && result !== undefined) resolve(result);
      else reject(new Error(`seeding the demo data failed: its process ended with ${signal ?? `exit code ${code}`}`));
    });
  });
}
