/**
 * The dashboard's count of open warranty requests is read again at every getSalesReportStats request
 * (docs/performance.md), so for a scope of officers it reads the index on the requests' customer and
 * status (migration 0006) instead of every warranty request of the company. SQLite's plan is asked of
 * the statement itself; it is SQLite's alone because PostgreSQL's planner chooses by the table's
 * statistics, which a test's few rows do not have (on the scale-10 demo data it reads the index as well,
 * README).
 */
import { CompiledQuery } from 'kysely';
import type { Engine } from '../db/engine';
import { suiteEngine } from '../../test/support/engines';
import { insertMasterData } from '../../test/support/fixture';
import { openWarrantyRequestsQuery } from './repository';

describe("the dashboard's open warranty requests: sqlite", () => {
  let engine: Engine;
  suiteEngine(
    'sqlite',
    (opened) => (engine = opened),
    () => insertMasterData(engine.db),
  );

  async function plan(officers: string[] | undefined): Promise<string[]> {
    const compiled = openWarrantyRequestsQuery(engine.db, officers).compile();
    const result = await engine.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((row) => row.detail);
  }

  it("counts the requests of a scope's customers from the index on customer and status, without a scan of every request", async () => {
    for (const officers of [['SO01'], ['SO01', 'SO02', 'SO03']]) {
      const details = await plan(officers);
      expect(details).toContainEqual(
        expect.stringMatching(
          /^SEARCH warranty_requests USING COVERING INDEX warranty_requests_customer \(customer_code=\?/,
        ),
      );
      expect(details.filter((d) => d.startsWith('SCAN warranty_requests'))).toEqual([]);
    }
  });
});
