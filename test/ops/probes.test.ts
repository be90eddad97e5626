/**
 * GET /health and GET /ready (src/monitoring/probes.ts): health answers while the process runs, without the
 * database; ready answers 200 only when the database answers and every migration is applied, and 503
 * with a reason when the database is closed, not migrated, or the server is stopping.
 */
import request from 'supertest';
import { createApp } from '../../src/app';
import { loadSettings } from '../../src/config';
import { openEngine } from '../../src/db/engine';
import { migrate } from '../../src/db/migrate';
import { ENGINES } from '../support/engines';
import { captureLog, startOpsApp } from './ops-support';

describe.each(ENGINES)('probes: %s', (kind) => {
  it('/health answers ok, nothing about the process, even with the database closed', async () => {
    const ops = await startOpsApp(kind);
    await ops.close();
    const res = await request(ops.app).get('/health').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('/ready is 200 on a migrated database and 503 once the database is closed', async () => {
    const ops = await startOpsApp(kind);
    try {
      expect((await request(ops.app).get('/ready').expect(200)).body).toEqual({ status: 'ready' });
    } finally {
      await ops.close();
    }
    const res = await request(ops.app).get('/ready').expect(503);
    expect(res.body).toEqual({ status: 'unavailable', reason: 'the database does not answer' });
    expect(ops.log.lines.some((l) => l.level === 'warn' && l.msg === 'readiness: the database did not answer')).toBe(
      true,
    );
  });

  it('/ready is 503 while the server is stopping', async () => {
    const ops = await startOpsApp(kind);
    try {
      await request(ops.app).get('/ready').expect(200);
      ops.state.stopping = true;
      expect((await request(ops.app).get('/ready').expect(503)).body).toEqual({
        status: 'unavailable',
        reason: 'the server is shutting down',
      });
    } finally {
      await ops.close();
    }
  });
});

describe('/ready before the migrations', () => {
  it('is 503 until every migration is applied, then 200', async () => {
    const engine = openEngine('sqlite::memory:');
    try {
      const log = captureLog();
      const app = createApp({ settings: loadSettings({ LOG_LEVEL: 'info' }), engine, logDestination: log.destination });
      const res = await request(app).get('/ready').expect(503);
      expect(res.body).toEqual({ status: 'unavailable', reason: 'the database migrations are not all applied' });
      await migrate(engine);
      await request(app).get('/ready').expect(200);
    } finally {
      await engine.close();
    }
  });
});
