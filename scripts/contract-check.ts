/**
 * npm run contract-check -- <base-url> [--api-namespace ns] [--sync-namespace ns] [--base-path /P]
 *                           [--no-extensions] [--json]
 *
 * Runs the contract checks (src/contract-check) over real HTTP against a running server: this one, or
 * any other deployment of the interface; with --no-extensions, the legacy ASMX server. Prints one line
 * per check and a summary (docs/integrators.md). Exit codes: 0 every check passed, 1 a check failed,
 * 2 bad arguments or no server answering at the address.
 */
import { runCli } from '../src/contract-check/cli';

runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
