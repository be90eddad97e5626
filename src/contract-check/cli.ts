/**
 * The command `npm run contract-check -- <base-url> [options]` (scripts/contract-check.ts is its
 * process wrapper): arguments, a reachability probe, the run, the report. Returns the exit code:
 * 0 every check passed, 1 a check failed, 2 bad arguments or no server answering at the address.
 */
import { parseArguments, UsageError, USAGE } from './arguments';
import { jsonReport, resultLine, summaryLine } from './reporter';
import { createContext, runContractChecks } from './runner';
import type { CheckOptions } from './types';

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

export async function runCli(argv: readonly string[], output: CliOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  const { options, json } = parsed;
  const unreachable = await reachability(options);
  if (unreachable) {
    output.err(`no server answers at ${options.baseUrl}: ${unreachable}\n`);
    return 2;
  }
  const report = await runContractChecks(options, {
    onResult: json ? undefined : (result) => output.out(`${resultLine(result)}\n`),
  });
  output.out(json ? jsonReport(report) : `${summaryLine(report)}\n`);
  return report.failed === 0 ? 0 : 1;
}

/** A connection error (not an HTTP status) before any check runs means there is nothing to check. */
async function reachability(options: CheckOptions): Promise<string | undefined> {
  const ctx = createContext(options);
  try {
    await ctx.send({ method: 'GET', path: `${ctx.service('MobileAppWebService').path}?wsdl` });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
