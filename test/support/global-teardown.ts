/** Runs once after the suites: drops the PostgreSQL schemas the run made (engines.ts). */
import { dropTestSchemas } from './engines';

export default async function globalTeardown(): Promise<void> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  const runId = process.env.TEST_RUN_ID;
  if (databaseUrl && runId) await dropTestSchemas(databaseUrl, runId);
}
