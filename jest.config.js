const { leftOutSuites } = require('./test/support/optional-suites');

/**
 * Suites that need a program this machine may lack are left out of the run when it is missing;
 * test/support/global-setup.ts prints a "[left out]" line for each, so a green run never hides them.
 */
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...leftOutSuites().map((suite) => `/${suite.file.replace(/\./g, '\\.')}$`)],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
};
