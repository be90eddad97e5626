const { spawnSync } = require('node:child_process');

/**
 * Suites that need a program this machine may lack are left out of the run when it is missing;
 * test/support/global-setup.ts prints a "[left out]" line for each, so a green run never hides them.
 */
const XMLLINT_AVAILABLE = spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status === 0;
/** gSOAP's generators, its headers and library, and a C++ compiler (test/interop/interop-gsoap.test.ts). */
/** JAX-WS's wsimport (Debian's libjaxws-java) and a Java compiler (test/interop/interop-jaxws.test.ts). */
const JAXWS_AVAILABLE = require('node:fs').existsSync('/usr/share/java/jaxws-tools.jar') && spawnSync('javac', ['-version'], { stdio: 'ignore' }).status === 0;
const GSOAP_AVAILABLE = ['wsdl2h', 'soapcpp2'].every((tool) => spawnSync(tool, ['-h'], { stdio: 'ignore' }).status !== null) && require('node:fs').existsSync('/usr/include/stdsoap2.h') && spawnSync('g++', ['--version'], { stdio: 'ignore' }).status === 0;

/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: [
    '/node_modules/',
    ...(XMLLINT_AVAILABLE ? [] : ['/test/interop/wsdl-schema\\.test\\.ts$']),
    ...(GSOAP_AVAILABLE ? [] : ['/test/interop/interop-gsoap\\.test\\.ts$']),
    ...(JAXWS_AVAILABLE ? [] : ['/test/interop/interop-jaxws\\.test\\.ts$']),
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
};
