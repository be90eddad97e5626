/**
 * README's "Settings" table against the schema of src/config.ts, the one statement of the settings:
 * the same variables in the same order (the order in which a bad value is reported), each with the
 * default the schema gives it. A setting added to one and not the other fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SETTING_VARIABLES, settingDefaults } from '../../src/config';

/** Defaults that follow another variable: README words them, settingsOf settles them (settings.test.ts). */
const DERIVED = ['API_V2_NAMESPACE', 'SYNC_V2_NAMESPACE', 'RATE_LIMIT_BURST', 'RATE_LIMIT_STORE'];

function readmeRows(): { name: string; defaultCell: string }[] {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Settings\n'));
  const table = section.slice(0, section.indexOf('\n## ', 1));
  return [...table.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]+) \|/gm)].map((m) => ({
    name: m[1],
    defaultCell: m[2].trim(),
  }));
}

/** How README writes a default: `value`, "empty" for an empty text, "none" for no value. */
function written(value: unknown): string {
  if (value === undefined) return 'none';
  return value === '' ? 'empty' : `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

describe("README's settings table", () => {
  const rows = readmeRows();

  it('lists every variable of the schema, in its order', () => {
    expect(rows.map((row) => row.name)).toEqual(SETTING_VARIABLES);
  });

  it.each(readmeRows().filter((row) => !DERIVED.includes(row.name)))(
    'gives $name the default the schema gives it',
    ({ name, defaultCell }) => {
      expect(defaultCell.startsWith(written(settingDefaults()[name]))).toBe(true);
    },
  );

  it.each(DERIVED)('leaves %s to the rules between variables', (name) => {
    expect(settingDefaults()[name]).toBeUndefined();
    expect(rows.find((row) => row.name === name)?.defaultCell).not.toBe('none');
  });
});
