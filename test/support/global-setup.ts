/**
 * Runs once before the suites. It says which suites the run leaves out and why, so a green run on
 * a machine without PostgreSQL is never mistaken for a run that covered it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { newTestRunId } from './engines';

export default function globalSetup(): void {
  // The workers inherit it: every PostgreSQL schema of this run carries it (engines.ts).
  process.env.TEST_RUN_ID = newTestRunId();
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write(
      '\n[left out] PostgreSQL runs of the database and operation suites: TEST_DATABASE_URL is not set ' +
        '(.ci/run sets it to postgres://postgres@127.0.0.1:5432/test). Only SQLite is tested in this run.\n',
    );
  }
  // jest.config.js leaves the suite out on the same test.
  if (spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status !== 0) {
    process.stdout.write('[left out] test/interop/wsdl-schema.test.ts (WSDL schema validation): xmllint is not installed (apt-get install libxml2-utils)\n');
  }
  const gsoap = ['wsdl2h', 'soapcpp2'].every((tool) => spawnSync(tool, ['-h'], { stdio: 'ignore' }).status !== null) && existsSync('/usr/include/stdsoap2.h');
  if (!gsoap || spawnSync('g++', ['--version'], { stdio: 'ignore' }).status !== 0) {
    process.stdout.write('[left out] test/interop/interop-gsoap.test.ts (a gSOAP C++ client of the v2 contract): gSOAP or g++ is not installed (apt-get install gsoap libgsoap-dev g++)\n');
  }
  if (!existsSync('/usr/share/java/jaxws-tools.jar') || spawnSync('javac', ['-version'], { stdio: 'ignore' }).status !== 0) {
    process.stdout.write('[left out] test/interop/interop-jaxws.test.ts (a JAX-WS client of the v2 contract): javac or libjaxws-java is not installed (apt-get install libjaxws-java)\n');
  }
}
