/** Empties every table the demo data fills and restarts the counters, in one transaction (seed --reset). */
import type { Engine } from '../db/engine';
import { SEEDED_TABLES } from './index';

export async function clearDatabase(engine: Engine): Promise<void> {
  await engine.db.transaction().execute(async (trx) => {
    for (const table of [...SEEDED_TABLES].reverse()) await trx.deleteFrom(table).execute();
    await trx.updateTable('counters').set({ value: 0 }).execute();
  });
}
