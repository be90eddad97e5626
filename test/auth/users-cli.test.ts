/**
 * npm run users (scripts/users.ts) on a real SQLite file, then the real app on that same file: a
 * password set by the CLI and a key it creates open the bindings, a key it revokes no longer does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app';
import { loadSettings } from '../../src/config';
import { openEngine, type Engine } from '../../src/db/engine';
import { migrate } from '../../src/db/migrate';
import { main, type UsersIo } from '../../scripts/users';
import { authDb } from '../../src/auth/credential-store';
import { clearDatabase } from '../../src/demo-data';
import { insertMasterData } from '../support/fixture';
import { captureOutput } from '../support/output';
import { SYNC, basic, call } from './auth-support';

function io(password = ''): UsersIo & ReturnType<typeof captureOutput> {
  return { ...captureOutput(), readPassword: () => Promise.resolve(password) };
}

describe('users CLI', () => {
  let dir: string;
  let env: Record<string, string>;
  let engine: Engine;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'users-cli-'));
    env = { DATABASE_URL: `sqlite:${path.join(dir, 'app.db')}` };
    engine = openEngine(env.DATABASE_URL);
    await migrate(engine);
    await insertMasterData(engine.db);
  });
  afterAll(async () => {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const app = () => createApp({ settings: loadSettings({ ...env, LOG_LEVEL: 'silent', AUTH_MODE: 'any' }), engine });

  it('sets a password read from standard input, which then opens the bindings', async () => {
    const out = io('a long passphrase');
    expect(await main(['set-password', 'SO.One'], out, env)).toBe(0);
    expect(out.lines).toEqual(['password set for so.one (SO01, SO)']);
    expect((await call(app(), 'soap12', SYNC, 'HelloWorld', {}, basic('so.one', 'a long passphrase'))).status).toBe(
      200,
    );
    expect((await call(app(), 'soap12', SYNC, 'HelloWorld', {}, basic('so.one', 'another one'))).status).toBe(401);
  });

  it('refuses a short password and an unknown user', async () => {
    const short = io('short');
    expect(await main(['set-password', 'so.two'], short, env)).toBe(1);
    expect(short.errors[0]).toMatch(/8 to 1024 characters/);
    const unknown = io('a long passphrase');
    expect(await main(['set-password', 'nobody'], unknown, env)).toBe(1);
    expect(unknown.errors).toEqual(["users: no user named 'nobody'"]);
  });

  it('creates a key shown once, lists it, and revokes it', async () => {
    const created = io();
    expect(await main(['create-key', '--label', 'field tablet 7', 'am.north'], created, env)).toBe(0);
    const [key] = created.lines;
    expect(key).toMatch(/^[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/);
    const keyId = key.split('.')[0];
    expect((await call(app(), 'httpget', SYNC, 'HelloWorld', {}, { 'X-API-Key': key })).status).toBe(200);

    const listed = io();
    expect(await main(['list-keys', 'am.north'], listed, env)).toBe(0);
    expect(listed.lines).toHaveLength(2);
    const fields = listed.lines[1].split('\t');
    expect(fields.slice(0, 3)).toEqual([keyId, 'am.north', 'field tablet 7']);
    expect(fields[4]).toMatch(/^\d{4}-/); // last used by the call above
    expect(fields[5]).toBe('');
    expect(listed.lines.join('\n')).not.toContain(key.split('.')[1]);

    expect(await main(['revoke-key', keyId], io(), env)).toBe(0);
    expect((await call(app(), 'httpget', SYNC, 'HelloWorld', {}, { 'X-API-Key': key })).status).toBe(401);
    const again = io();
    expect(await main(['revoke-key', keyId], again, env)).toBe(1);
    expect(again.errors).toEqual([`users: no active key '${keyId}'`]);
  });

  it('leaves nothing behind that would stop seed --reset from emptying the users', async () => {
    expect(await main(['create-key', 'so.two'], io(), env)).toBe(0);
    await clearDatabase(engine);
    const remaining = await authDb(engine.db).selectFrom('api_keys').select('key_id').execute();
    expect(remaining).toEqual([]);
    expect(await authDb(engine.db).selectFrom('user_passwords').select('user_id').execute()).toEqual([]);
    await insertMasterData(engine.db);
  });

  it.each([
    [[]],
    [['set-password']],
    [['set-password', 'a', 'b']],
    [['create-key']],
    [['create-key', 'a', '--colour', 'red']],
    [['revoke-key']],
    [['list-keys', 'a', 'b']],
    [['drop-table']],
  ])('answers a usage error with exit code 2: %j', async (argv) => {
    const out = io();
    expect(await main(argv, out, env)).toBe(2);
    expect(out.errors.at(-1)).toMatch(/usage:/);
  });
});
