/** The process: settings, tracing, the server or its workers; what cannot work stops the start with one line. */
import cluster from 'node:cluster';
import fs from 'node:fs';
import { loadSettings, SettingsError, type Settings } from './config';
import { unsupportedNode } from './process/node-version';
import { isSeedChild, runSeedChild } from './process/seed-child';
import { startTracing } from './tracing/sdk';

async function main(): Promise<void> {
  const oldNode = unsupportedNode();
  if (oldNode !== undefined) fail(oldNode);
  const settings = readSettings();
  if (isSeedChild()) return runSeedChild(settings);
  // SQLite takes one writing process (engine.ts, multiProcess); several would fight over its lock.
  if (settings.workers > 1 && settings.databaseUrl.startsWith('sqlite:')) {
    fail(
      `Invalid setting WORKERS: ${settings.workers} processes cannot share SQLite, which is single-writer; set WORKERS=1 or use PostgreSQL (DATABASE_URL=postgres://...)`,
    );
  }
  const serving = settings.workers === 1 || !cluster.isPrimary;
  const tracing = serving ? await startTracing() : undefined;
  // Loaded only now, so that tracing's instrumentations see http, express, pg and ioredis load.
  const { exitOnSignals } = await import('./process/signals');
  const { runPrimary, runWorker } = await import('./process/cluster');
  const { startServer } = await import('./server');
  const flush = () => tracing?.shutdown() ?? Promise.resolve();
  if (settings.workers === 1) exitOnSignals(await startServer(settings, { seedInChild: true }), flush);
  else if (cluster.isPrimary) runPrimary(settings);
  else await runWorker(settings, flush);
}

function readSettings(): Settings {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) fail(`Invalid setting ${err.message}`);
    throw err;
  }
}

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
