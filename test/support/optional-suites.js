/**
 * The suites that need a program this machine may lack, and how to tell whether it is there. Read by
 * jest.config.js, which leaves a suite out of the run when its programs are missing, and by
 * global-setup.ts, which prints a "[left out]" line for each, so a green run never hides them.
 * CommonJS, because jest.config.js loads it before any TypeScript is compiled.
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');

/** Whether the program runs (status null: not found). */
const runs = (program, args) => spawnSync(program, args, { stdio: 'ignore' }).status !== null;
const succeeds = (program, args) => spawnSync(program, args, { stdio: 'ignore' }).status === 0;

const OPTIONAL_SUITES = [
  {
    file: 'test/interop/wsdl-schema.test.ts',
    what: 'WSDL schema validation',
    available: () => succeeds('xmllint', ['--version']),
    missing: 'xmllint is not installed (apt-get install libxml2-utils)',
  },
  {
    file: 'test/interop/interop-gsoap.test.ts',
    what: 'a gSOAP C++ client of the v2 contract',
    available: () =>
      runs('wsdl2h', ['-h']) &&
      runs('soapcpp2', ['-h']) &&
      existsSync('/usr/include/stdsoap2.h') &&
      succeeds('g++', ['--version']),
    missing: 'gSOAP or g++ is not installed (apt-get install gsoap libgsoap-dev g++)',
  },
  {
    file: 'test/interop/interop-jaxws.test.ts',
    what: 'a JAX-WS client of the v2 contract',
    available: () => existsSync('/usr/share/java/jaxws-tools.jar') && succeeds('javac', ['-version']),
    missing: 'javac or libjaxws-java is not installed (apt-get install libjaxws-java)',
  },
  {
    file: 'test/interop/interop-mono.test.ts',
    what: 'a .NET client of the v2 contract',
    available: () => ['wsdl', 'mcs', 'mono'].every((tool) => runs(tool, ['--version'])),
    missing: 'Mono is not installed (apt-get install mono-devel libmono-system-web-services4.0-cil)',
  },
  {
    file: 'test/interop/interop-soaplite.test.ts',
    what: 'Perl SOAP::Lite against the v2 contract',
    available: () => succeeds('perl', ['-MSOAP::Lite', '-MJSON::PP', '-e', '1']),
    missing: 'SOAP::Lite is not installed (apt-get install libsoap-lite-perl)',
  },
  {
    file: 'test/browser/help-pages.test.ts',
    what: 'the help pages and /API/docs in a real browser',
    // The path test/support/browser.ts launches: Debian's package, which downloads nothing.
    available: () => succeeds('/usr/bin/chromium', ['--version']),
    missing: 'Chromium is not installed (apt-get install chromium)',
  },
];

/** The suites this machine cannot run, each checked once per call. */
function leftOutSuites() {
  return OPTIONAL_SUITES.filter((suite) => !suite.available()).map(({ file, what, missing }) => ({
    file,
    what,
    missing,
  }));
}

module.exports = { leftOutSuites };
