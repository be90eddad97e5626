/**
 * The import command as a user runs it (scripts/import.ts main), on every engine: arguments, exit
 * codes, what it prints, the rejects file, and what ends up in the database of DATABASE_URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { main } from '../../scripts/import';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { openEngine, type Engine, type EngineKind } from '../db/engine';
import { migrate } from '../db/migrate';

const GOOD = {
  'zones.csv': 'code,name\nN,North\nS,South\n',
  'states.csv': 'code,name,zone_code\nDL,Delhi,N\n',
};

function writeExport(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cmd-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A database the command opens by URL, and an engine of the test's own on the same database. */
async function target(kind: EngineKind): Promise<{ url: string; engine: Engine }> {
  if (kind === 'sqlite') {
    const url = `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'import-db-')), 'app.db')}`;
    const engine = openEngine(url);
    await migrate(engine);
    return { url, engine };
  }
  const engine = await freshEngine('postgres');
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.searchParams.set('schema', engine.schema!);
  return { url: url.toString(), engine };
}

function capture() {
  const out = {
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
  const err = {
    text: '',
    write(s: string) {
      this.text += s;
    },
  };
  return { out, err };
}

const rejectsOf = (dir: string) => fs.readFileSync(path.join(dir, 'import-rejects.csv'), 'utf8');

describe.each(ENGINES)('npm run import: %s', (kind) => {
  let db: { url: string; engine: Engine };
  beforeEach(async () => {
    db = await target(kind);
  });
  afterEach(async () => {
    await db.engine.close();
  });

  const run = (argv: string[], io = capture()) =>
    main(argv, { DATABASE_URL: db.url }, io).then((code) => ({ code, ...io }));

  it('exits 0 when everything loads, prints a line per file and leaves a rejects file with just its header', async () => {
    const dir = writeExport({ ...GOOD, 'notes.csv': 'x\n' });
    const { code, out } = await run([dir]);
    expect(code).toBe(0);
    expect(out.text).toContain('notes.csv: ignored, not named after a table\n');
    expect(out.text).toContain('zones.csv: read 2, inserted 2, updated 0, rejected 0\n');
    expect(out.text).toContain('states.csv: read 1, inserted 1, updated 0, rejected 0\n');
    expect(rejectsOf(dir)).toBe('file,line,column,reason\r\n');
    expect(await db.engine.db.selectFrom('states').selectAll().execute()).toEqual([
      { code: 'DL', name: 'Delhi', zone_code: 'N' },
    ]);

    const again = await run([dir]);
    expect(again.code).toBe(0);
    expect(again.out.text).toContain('zones.csv: read 2, inserted 0, updated 2, rejected 0\n');
  });

  it('exits 1 when a row is rejected, prints it and writes it to <dir>/import-rejects.csv, and loads the rest', async () => {
    const dir = writeExport({
      ...GOOD,
      'states.csv': 'code,name,zone_code\nDL,Delhi,N\n"KA","Karnataka, ""South""",Q\n',
    });
    const { code, out } = await run([dir]);
    expect(code).toBe(1);
    const reason = "'Q' is not a zones.code in the database or earlier in this import";
    expect(out.text).toContain(`REJECT states.csv line 3, zone_code: ${reason}\n`);
    expect(rejectsOf(dir)).toBe(`file,line,column,reason\r\nstates.csv,3,zone_code,${reason}\r\n`);
    expect((await db.engine.db.selectFrom('states').select('code').execute()).map((r) => r.code)).toEqual(['DL']);
  });

  it('--dry-run validates and reports but writes nothing to the database', async () => {
    const dir = writeExport({ ...GOOD, 'states.csv': 'code,name,zone_code\nDL,Delhi,N\nKA,Karnataka,Q\n' });
    const { code, out } = await run([dir, '--dry-run']);
    expect(code).toBe(1);
    expect(out.text).toContain('zones.csv: read 2, inserted 2, updated 0, rejected 0\n');
    expect(out.text).toContain('(dry run: nothing was written to the database)');
    expect(rejectsOf(dir)).toContain('states.csv,3,zone_code,');
    expect(await db.engine.db.selectFrom('zones').selectAll().execute()).toEqual([]);
    expect(await db.engine.db.selectFrom('states').selectAll().execute()).toEqual([]);

    expect((await run(['--dry-run', writeExport(GOOD)])).code).toBe(0);
    expect(await db.engine.db.selectFrom('zones').selectAll().execute()).toEqual([]);
  });

  it('exits 1 when the database refuses a file: that file is rolled back whole, the others load', async () => {
    if (kind === 'sqlite') {
      await sql
        .raw(
          `create trigger states_refuse before insert on states when new.code = 'XX' begin select raise(abort, 'state XX refused'); end`,
        )
        .execute(db.engine.db);
    } else {
      await sql
        .raw(
          `create function states_refuse() returns trigger language plpgsql as $$ begin if new.code = 'XX' then raise exception 'state XX refused'; end if; return new; end $$`,
        )
        .execute(db.engine.db);
      await sql
        .raw('create trigger states_refuse before insert on states for each row execute function states_refuse()')
        .execute(db.engine.db);
    }
    const dir = writeExport({ ...GOOD, 'states.csv': 'code,name,zone_code\nDL,Delhi,N\nXX,Refused,S\n' });
    const { code, out } = await run([dir]);
    expect(code).toBe(1);
    expect(out.text).toMatch(/states\.csv: FAILED and rolled back, nothing of it is stored: .*state XX refused/);
    expect(rejectsOf(dir)).toMatch(/\r\nstates\.csv,,,the file was not loaded \(rolled back\): .*state XX refused/);
    expect(await db.engine.db.selectFrom('states').selectAll().execute()).toEqual([]);
    expect(await db.engine.db.selectFrom('zones').selectAll().execute()).toHaveLength(2);
  });

  it('exits 2 for bad arguments, touching nothing', async () => {
    const dir = writeExport(GOOD);
    const cases: string[][] = [
      [],
      [dir, dir],
      [dir, '--force'],
      [path.join(dir, 'missing')],
      [writeExport({ 'notes.csv': 'x\n' })],
    ];
    for (const argv of cases) {
      const { code, err } = await run(argv);
      expect([argv, code]).toEqual([argv, 2]);
      expect(err.text).not.toBe('');
    }
    const badUrl = await main([dir], { DATABASE_URL: 'mysql://x' }, capture());
    expect(badUrl).toBe(2);
    expect(fs.existsSync(path.join(dir, 'import-rejects.csv'))).toBe(false);
    expect(await db.engine.db.selectFrom('zones').selectAll().execute()).toEqual([]);

    const help = capture();
    expect(await main(['--help'], {}, help)).toBe(0);
    expect(help.out.text).toContain('usage: npm run import -- <dir> [--dry-run]');
  });
});
