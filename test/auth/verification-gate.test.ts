/**
 * The bound on password verifications at once (src/auth/verification-gate.ts, docs/operations.md
 * "Authentication"), through the real server: under a burst of concurrent wrong passwords over every
 * binding never more than RUNNING verifications run at once and at most WAITING wait; the attempts
 * past those are refused with 503 and Retry-After in each binding's form, without a verification.
 * The gate's own counts tell what ran. The failed-login ceilings are raised out of the way.
 */
import { randomBytes } from 'node:crypto';
import { BUSY_RETRY_AFTER_SECONDS, RUNNING, WAITING, gateCounts } from '../../src/auth/verification-gate';
import type { TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { BINDINGS, SYNC, basic, call, expectRefusal, givePassword, suiteAuthApp } from './auth-support';

const BUSY = `Server too busy; retry after ${BUSY_RETRY_AFTER_SECONDS} seconds.`;
/** Far more than RUNNING + WAITING, sent at once. */
const BURST = 64;

describe.each(ENGINES)('password verifications at once: %s', (kind) => {
  let t: TestApp;
  suiteAuthApp(
    kind,
    { AUTH_MODE: 'basic', LOGIN_FAILURES_PER_MINUTE: '10000', LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '10000' },
    (started) => (t = started),
    async () => {
      await givePassword(t, 'so.one', 'correct horse');
      // The decoy hash of unknown usernames is made once per process, on first use: not within the burst.
      expect((await call(t.app, 'httpget', SYNC, 'HelloWorld', {}, basic('nobody', 'x'))).status).toBe(401);
    },
  );

  it(`runs at most ${RUNNING} at once with ${WAITING} waiting, and refuses the others in every binding with 503 before any hash`, async () => {
    const before = gateCounts();
    const wrong = (i: number) =>
      basic(i % 2 === 0 ? 'so.one' : `nobody.${randomBytes(4).toString('hex')}`, `wrong ${i}`);
    const burst = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        call(t.app, BINDINGS[i % BINDINGS.length], SYNC, 'HelloWorld', {}, wrong(i)).then((res) => ({
          binding: BINDINGS[i % BINDINGS.length],
          res,
        })),
      ),
    );
    const after = gateCounts();
    const refused = burst.filter(({ res }) => res.status === 503);
    expect(burst.filter(({ res }) => res.status !== 401 && res.status !== 503).map(({ res }) => res.status)).toEqual(
      [],
    );
    for (const { binding, res } of refused) {
      expectRefusal(res, binding, 503, BUSY);
      expect(res.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    }
    expect(new Set(refused.map(({ binding }) => binding))).toEqual(new Set(BINDINGS));
    expect(after.started - before.started).toBe(BURST - refused.length);
    expect(after.refused - before.refused).toBe(refused.length);
    expect(after.mostRunning).toBe(RUNNING);
    expect(after.mostWaiting).toBe(WAITING);
    expect([after.running, after.waiting]).toEqual([0, 0]);
    // Once the queue has drained the right password is served again.
    expect((await call(t.app, 'soap12', SYNC, 'HelloWorld', {}, basic('so.one', 'correct horse'))).status).toBe(200);
  });
});
