/**
 * The rate-limit stores (src/auth/rate-limiter.ts, docs/operations.md "Rate limiting"): with
 * RATE_LIMIT_STORE=postgres or redis, two server apps (as two processes or hosts would) share one
 * count per client, so the limit holds across them, and so does the count of failed logins, for
 * attempts sent at once too; a store that is down does not take the service down: requests are
 * answered, counted in the process meanwhile, and a warning is logged once.
 *
 * PostgreSQL needs TEST_DATABASE_URL, the shared Redis TEST_REDIS_URL (redis://127.0.0.1:6379); the
 * cases of a store that is down need neither (they point at a closed port).
 */
import { randomBytes } from 'node:crypto';
import type { App } from '../../src/app';
import request from 'supertest';
import { sql } from 'kysely';
import { createApp } from '../../src/app';
import { loadSettings, type Settings } from '../../src/config';
import { openEngine, type Engine } from '../../src/db/engine';
import { freshEngine } from '../support/engines';
import { captureLog, type LogCapture } from '../ops/ops-support';
import { SYNC } from './auth-support';

interface Limited {
  app: App;
  log: LogCapture;
}

function limitedApp(engine: Engine, settings: Partial<Settings>): Limited {
  const log = captureLog();
  const base = loadSettings({ LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '4', TRUST_PROXY: 'true' });
  return { app: createApp({ settings: { ...base, ...settings }, engine, logDestination: log.destination }), log };
}

const helloWorld = (app: App, client: string) => request(app).get(`${SYNC}/HelloWorld`).set('X-Forwarded-For', client);
const wrongPassword = (app: App, client: string) =>
  helloWorld(app, client).set('Authorization', `Basic ${Buffer.from('so.one:wrong').toString('base64')}`);
const newClient = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/** Six requests of one client, alternating between the two apps: the allowance of 4 is shared. */
async function expectSharedCount(a: App, b: App): Promise<void> {
  const client = newClient();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await helloWorld(i % 2 === 0 ? a : b, client)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
}

/** Four wrong passwords for one user from one address, alternating between the two apps: the ceiling of 3 is shared. */
async function expectSharedFailures(a: App, b: App): Promise<void> {
  const client = newClient();
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await wrongPassword(i % 2 === 0 ? a : b, client)).status);
  expect(statuses).toEqual([401, 401, 401, 429]);
}

/** Forty wrong passwords for one user from one address at once, half to each app: three are checked, the rest refused. */
async function expectSharedBurst(a: App, b: App): Promise<void> {
  const client = newClient();
  const statuses = await Promise.all(
    Array.from({ length: 40 }, (_, i) => wrongPassword(i % 2 === 0 ? a : b, client).then((res) => res.status)),
  );
  expect(statuses.filter((status) => status === 401)).toHaveLength(3);
  expect(statuses.filter((status) => status === 429)).toHaveLength(37);
}

/** Two apps with authentication and the failed-login ceiling of 3, the rate limit off. */
const loginSettings: Partial<Settings> = { authMode: 'basic', rateLimitPerMinute: 0, loginFailuresPerMinute: 3 };

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
if (!databaseUrl)
  process.stdout.write('[left out] the rate-limit count shared in PostgreSQL: TEST_DATABASE_URL is not set.\n');
if (!redisUrl)
  process.stdout.write(
    '[left out] the rate-limit count shared in Redis: TEST_REDIS_URL is not set (redis://127.0.0.1:6379).\n',
  );

/** Two engines on one fresh PostgreSQL schema, as two processes open it. */
async function twoPostgresEngines(): Promise<Engine[]> {
  const first = await freshEngine('postgres');
  const url = new URL(databaseUrl!);
  url.searchParams.set('schema', first.schema!);
  return [first, openEngine(url.toString())];
}

/** Two apps with `settings` on the first and the last of `engines` (one engine may serve both); all closed after `work`. */
async function withTwoApps(
  engines: Engine[],
  settings: Partial<Settings>,
  work: (a: Limited, b: Limited) => Promise<void>,
): Promise<void> {
  const a = limitedApp(engines[0], settings);
  const b = limitedApp(engines.at(-1)!, settings);
  try {
    await work(a, b);
  } finally {
    await Promise.all([a.app.close(), b.app.close()]);
    await Promise.all(engines.map((engine) => engine.close()));
  }
}

describe('a shared rate-limit store', () => {
  if (databaseUrl) {
    it('postgres: two apps on one database count one client together, in the table rate_limits', async () => {
      const engines = await twoPostgresEngines();
      await withTwoApps(engines, { rateLimitStore: 'postgres' }, async (a, b) => {
        await expectSharedCount(a.app, b.app);
        const rows = await sql<{ n: number }>`select count(*) as n from ${sql.table('rate_limits')}`.execute(
          engines[0].db,
        );
        expect(rows.rows[0].n).toBeGreaterThanOrEqual(1);
        expect(a.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
      });
    });
  }

  if (databaseUrl) {
    it('postgres: two apps on one database count the failed logins of one address and username together, at once too', async () => {
      await withTwoApps(await twoPostgresEngines(), { ...loginSettings, rateLimitStore: 'postgres' }, async (a, b) => {
        await expectSharedFailures(a.app, b.app);
        await expectSharedBurst(a.app, b.app);
      });
    });
  }

  if (redisUrl) {
    it('redis: two apps count the failed logins of one address and username together, at once too', async () => {
      await withTwoApps(
        [await freshEngine('sqlite')],
        { ...loginSettings, rateLimitStore: 'redis', redisUrl },
        async (a, b) => {
          await expectSharedFailures(a.app, b.app);
          await expectSharedBurst(a.app, b.app);
        },
      );
    });

    it('redis: two apps count one client together', async () => {
      await withTwoApps([openEngine('sqlite::memory:')], { rateLimitStore: 'redis', redisUrl }, async (a, b) => {
        await expectSharedCount(a.app, b.app);
        expect(a.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
      });
    });
  }

  it.each([
    ['redis', { rateLimitStore: 'redis', redisUrl: 'redis://127.0.0.1:1' }, 'sqlite::memory:'],
    ['postgres', { rateLimitStore: 'postgres' }, 'postgres://nobody@127.0.0.1:1/nothing'],
  ] as const)(
    '%s down: answers, counts in the process meanwhile, and logs one warning',
    async (store, settings, url) => {
      const engine = openEngine(url, { connectTimeoutMs: 500, acquireTimeoutMs: 500 });
      const { app, log } = limitedApp(engine, settings);
      try {
        const client = newClient();
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) statuses.push((await helloWorld(app, client)).status);
        expect(statuses).toEqual([200, 200, 200, 200, 429]);
        const warnings = log.lines.filter((l) => l.level === 'warn' && l.store === store);
        expect(warnings).toHaveLength(1);
        expect(warnings[0].msg).toBe(
          `the rate-limit store (${store}) failed; counting in this process until it answers`,
        );
      } finally {
        await app.close();
        await engine.close();
      }
    },
  );
});
