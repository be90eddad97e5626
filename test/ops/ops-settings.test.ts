/**
 * The operations settings (src/config.ts): defaults, ranges, the headers/request timeout rule, and
 * the timeouts reaching the real listening server (src/server.ts).
 */
import { loadSettings, SettingsError } from '../../src/config';
import { startServer } from '../../src/server';
import { captureLog } from './ops-support';

describe('operations settings', () => {
  it('have production defaults', () => {
    expect(loadSettings({})).toMatchObject({
      workers: 1,
      shutdownTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      headersTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      seedDemoData: true,
      shutdownDrainMs: 5000,
      dbConnectTimeoutMs: 5000,
      dbAcquireTimeoutMs: 10_000,
      dbStatementTimeoutMs: 25_000,
      dbBusyTimeoutMs: 5000,
      dbStartupTimeoutMs: 120_000,
      rateLimitStore: 'memory',
    });
  });

  it('keep rate-limit counts in the database by default on PostgreSQL, and in Redis when asked', () => {
    expect(loadSettings({ DATABASE_URL: 'postgres://u@h/d' }).rateLimitStore).toBe('postgres');
    expect(loadSettings({ DATABASE_URL: 'postgres://u@h/d', RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe(
      'memory',
    );
    expect(loadSettings({ RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://r:6379' })).toMatchObject({
      rateLimitStore: 'redis',
      redisUrl: 'redis://r:6379',
    });
  });

  it.each([
    ['WORKERS', '0'],
    ['WORKERS', '65'],
    ['WORKERS', 'two'],
    ['SHUTDOWN_TIMEOUT_MS', '-1'],
    ['REQUEST_TIMEOUT_MS', '10'],
    ['KEEP_ALIVE_TIMEOUT_MS', '1s'],
    ['SEED_DEMO_DATA', 'maybe'],
    ['SHUTDOWN_DRAIN_MS', 'soon'],
    ['DB_CONNECT_TIMEOUT_MS', '50'],
    ['DB_ACQUIRE_TIMEOUT_MS', '600001'],
    ['DB_STATEMENT_TIMEOUT_MS', '-5'],
    ['DB_BUSY_TIMEOUT_MS', '5s'],
    ['DB_STARTUP_TIMEOUT_MS', '3600001'],
    ['RATE_LIMIT_STORE', 'disk'],
    ['RATE_LIMIT_STORE', 'postgres'],
    ['REDIS_URL', 'http://r:6379'],
  ])('refuse %s=%s naming the variable', (name, value) => {
    expect(() => loadSettings({ [name]: value })).toThrow(SettingsError);
    expect(() => loadSettings({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });

  it('refuse RATE_LIMIT_STORE=redis without REDIS_URL, naming REDIS_URL', () => {
    expect(() => loadSettings({ RATE_LIMIT_STORE: 'redis' })).toThrow(
      /^REDIS_URL: RATE_LIMIT_STORE=redis needs REDIS_URL/,
    );
  });

  it('refuse a headers timeout longer than the request timeout', () => {
    expect(() => loadSettings({ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' })).toThrow(
      /^HEADERS_TIMEOUT_MS: 6000 is longer than REQUEST_TIMEOUT_MS/,
    );
  });

  it('reach the listening server', async () => {
    const settings = loadSettings({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite::memory:',
      REQUEST_TIMEOUT_MS: '45000',
      HEADERS_TIMEOUT_MS: '15000',
      KEEP_ALIVE_TIMEOUT_MS: '70000',
      SHUTDOWN_DRAIN_MS: '0',
    });
    const log = captureLog();
    const running = await startServer(settings, { seedEmbedded: false, logDestination: log.destination });
    try {
      expect(running.server.requestTimeout).toBe(45_000);
      expect(running.server.headersTimeout).toBe(15_000);
      expect(running.server.keepAliveTimeout).toBe(70_000);
      expect(log.lines.find((l) => l.msg.startsWith('listening'))).toMatchObject({
        level: 'info',
        address: running.address,
        database: 'sqlite::memory:',
      });
    } finally {
      expect(await running.stop()).toEqual({ forced: false });
    }
  });
});
