/**
 * The linter `npm test` runs (npm run lint) before the tests, over src/, scripts/ and test/:
 * - typescript-eslint's recommended type-aware rules, with the options below and their reasons;
 * - the layer rule of docs/architecture.md ("Layers"): each folder of src/ may import only the layers
 *   below it.
 */
const fs = require('node:fs');
const path = require('node:path');
const tseslint = require('typescript-eslint');

const SRC = path.join(__dirname, 'src');
const FOLDERS = fs.readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
/** The business areas: each folder that declares operations (its operations.ts, taken by the registry), then the two they share. */
const AREAS = FOLDERS.filter((folder) => fs.existsSync(path.join(SRC, folder, 'operations.ts')));
const BUSINESS = [...AREAS, 'users', 'summaries'];
const TOOLS = ['import', 'demo-data', 'contract-check', 'cutover'];
const BINDINGS = ['asmx', 'auth', 'monitoring'];
const ASSEMBLY = ['services', 'process', 'app', 'server', 'main'];

/** An import that reaches the top-level folder (or file) `name` of src/ by a relative path. */
const reaching = (names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;

/** Files of `folders` may not import `forbidden`, for the reason given. */
function layer(folders, forbidden, reason) {
  return {
    files: folders.map((folder) => `src/${folder}/**/*.ts`),
    ignores: ['**/*.test.ts', '**/test-fixture.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: reaching(forbidden), message: reason }] }] },
  };
}

const LAYERS = [
  layer(['db'], [...BUSINESS, 'operations', ...TOOLS, ...BINDINGS, ...ASSEMBLY, 'request-context'], 'src/db holds the engines, the schema and the migrations: it knows no operation, binding or tool.'),
  layer(['request-context'], [...BUSINESS, 'operations', ...TOOLS, ...BINDINGS, ...ASSEMBLY], 'The request context is neutral: it knows no business area and no binding.'),
  layer(['operations'], [...BUSINESS, ...TOOLS, ...BINDINGS, ...ASSEMBLY], 'The operation interface knows no business area (the registry lives in src/services) and no binding.'),
  layer(BUSINESS, [...TOOLS, ...BINDINGS, ...ASSEMBLY, 'request-context'], 'Business code knows no binding, no request and no tool: operations do not know SOAP.'),
  layer(['services'], [...TOOLS, ...BINDINGS, 'process', 'app', 'server', 'main'], 'The service objects know no binding.'),
  layer(['auth'], [...BUSINESS, ...TOOLS, 'asmx', ...ASSEMBLY], 'Authentication knows no protocol: each binding answers its refusals (src/asmx/access-refusals.ts).'),
  layer(['monitoring'], [...BUSINESS, ...TOOLS, 'asmx', 'auth', ...ASSEMBLY], 'Logging and metrics read the request context, not the bindings.'),
  layer(['classifier'], [...BUSINESS, 'operations', ...TOOLS, ...BINDINGS, ...ASSEMBLY, 'db', 'request-context', 'tracing', 'config'], 'The classifier reads a request for the server and the cut-over proxy alike: it knows no binding, tool or business area, only the service shapes it is given.'),
  layer(['tracing'], [...BUSINESS, 'operations', ...TOOLS, ...BINDINGS, ...ASSEMBLY, 'db'], 'Spans read the request context: the bindings and the engines call them, never the other way.'),
  layer(['asmx'], [...BUSINESS, ...TOOLS, 'monitoring', ...ASSEMBLY.filter((name) => name !== 'services')], 'Protocol code knows nothing about sales: it calls the service objects.'),
  layer(['import', 'demo-data'], ['asmx', 'auth', 'monitoring', ...ASSEMBLY], 'The data tools write through the schema and the business rules, never through a binding.'),
  layer(['cutover'], ['asmx', 'auth', 'monitoring', ...ASSEMBLY.filter((name) => name !== 'services'), 'db'], 'The cut-over tools talk to servers over HTTP; of the server they read only the operation declarations, the settings, the classifier and the connection limits (src/connections.ts).'),
  layer(['contract-check'], [...BUSINESS, 'operations', ...TOOLS.filter((name) => name !== 'contract-check'), 'auth', 'monitoring', ...ASSEMBLY, 'db', 'request-context', 'tracing', 'classifier'], 'The contract checker talks to a deployment over HTTP; of the server it reads only the WSDL readers of src/asmx and the protocol texts.'),
  layer(['process'], ['main', 'import', 'contract-check', 'cutover'], 'The process serves: main.ts is the entry that calls it, and the command-line tools run as scripts of their own.'),
  layer(['types'], FOLDERS.filter((name) => name !== 'types'), 'src/types declares the types of packages that ship none: it describes a package, never this project.'),
];

/** Stops the linter at once when a folder of src/ has none of the rules above, naming it and what to add. */
const ruled = new Set(LAYERS.flatMap((rule) => rule.files.map((glob) => glob.split('/')[1])));
const unruled = FOLDERS.filter((folder) => !ruled.has(folder));
if (unruled.length > 0) {
  throw new Error(
    unruled
      .map((folder) => `src/${folder}/ has no layer rule: add layer(['${folder}'], [the folders it may not import], 'why') to LAYERS in eslint.config.js, and its place to docs/architecture.md ("Layers").`)
      .join('\n'),
  );
}

module.exports = tseslint.config(
  {
    files: ['src/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      // A parameter a signature requires but the code does not read is named with a leading underscore;
      // a member taken out of an object to copy the rest (const { a: _a, ...rest } = o) is not unused.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The tests read answers through values their libraries type as any: jest's asymmetric matchers
    // (expect.any, expect.objectContaining, ...) and supertest's parsed res.body.
    files: ['src/**/*.test.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  ...LAYERS,
);
