/** What a test sees of the answer cache (docs/operations.md, "Answer cache"): its lookups, from /metrics. */
import request from 'supertest';
import { basic } from '../auth/auth-support';
import type { TestApp } from './app';

/** With authentication on, /metrics is an ADMIN's: a suite that turns it on gives ADM001 this password. */
export const METRICS_ADMIN_PASSWORD = 'admin-secret';

/** The cache's lookups so far. */
export async function lookups(t: TestApp): Promise<{ hit: number; miss: number }> {
  const text = (
    await request(t.app)
      .get('/metrics')
      .set(t.settings.authMode === 'off' ? {} : basic('admin', METRICS_ADMIN_PASSWORD))
  ).text;
  const count = (result: string) =>
    Number(new RegExp(`^asmx_answer_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { hit: count('hit'), miss: count('miss') };
}

/** One GET that must succeed and look the cache up once: its body, and whether the cache answered it. */
export async function keptLookup(
  t: TestApp,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ body: string; hit: boolean }> {
  const before = await lookups(t);
  const res = await request(t.app).get(path).set(headers);
  expect(res.status).toBe(200);
  const after = await lookups(t);
  expect(after.hit + after.miss).toBe(before.hit + before.miss + 1);
  return { body: res.text, hit: after.hit === before.hit + 1 };
}
