/**
 * Runs a TypeScript entry point of the project in a real node process, without a build: each .ts
 * file is transpiled on require (TypeScript's transpileModule, the project's compiler options, no
 * type check: `npm run typecheck` does that). Tests spawn the server with it:
 *   node test/ops/launch-ts.js src/main.ts
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '..', '..');
const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  resolveJsonModule: true,
  inlineSourceMap: true,
};

// Transpiled files are kept by content hash, so the processes a test starts one after another
// (cluster workers, replacements) do not each transpile the whole project again.
const cacheDir = path.join(os.tmpdir(), `asmx-launch-ts-${ts.version}`);
fs.mkdirSync(cacheDir, { recursive: true });

function transpiled(source, filename) {
  const key = crypto.createHash('sha256').update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
    const temporary = `${cached}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, outputText);
    fs.renameSync(temporary, cached);
    return outputText;
  }
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(transpiled(fs.readFileSync(filename, 'utf8'), filename), filename);
};

require(path.resolve(root, process.argv[2]));
