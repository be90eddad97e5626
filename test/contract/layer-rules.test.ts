import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

/** Loads a copy of eslint.config.js beside a src/ of these folders; what the load prints when it stops. */
function loadConfigBeside(folders: Record<string, string[]>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layer-rules-'));
  try {
    fs.copyFileSync(path.join(root, 'eslint.config.js'), path.join(dir, 'eslint.config.js'));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    for (const [folder, files] of Object.entries(folders)) {
      fs.mkdirSync(path.join(dir, 'src', folder), { recursive: true });
      for (const file of files) fs.writeFileSync(path.join(dir, 'src', folder, file), 'export {};\n');
    }
    execFileSync(process.execPath, ['-e', "require('./eslint.config.js')"], { cwd: dir, stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const today = Object.fromEntries(
  fs
    .readdirSync(path.join(root, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => [
      entry.name,
      fs.existsSync(path.join(root, 'src', entry.name, 'operations.ts')) ? ['operations.ts'] : [],
    ]),
);

describe('the layer rule of eslint.config.js', () => {
  it('covers every folder of src/ today', () => {
    expect(loadConfigBeside(today)).toBe('');
  });

  it('stops the linter on a folder without a rule, naming it and what to add', () => {
    const printed = loadConfigBeside({ ...today, reports: ['index.ts'] });
    expect(printed).toContain(
      `src/reports/ has no layer rule: add layer(['reports'], [the folders it may not import], 'why') to LAYERS in eslint.config.js`,
    );
  });

  it('takes a folder that declares operations for a business area, with no rule to add', () => {
    expect(loadConfigBeside({ ...today, notes: ['operations.ts'] })).toBe('');
  });
});
