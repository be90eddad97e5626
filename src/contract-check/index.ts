/**
 * The contract checks as a library (scripts/contract-check.ts is its command line; the test suite runs
 * it against the in-process server): one definition of what "the contract" means, for this server and
 * for any other deployment of the interface, the legacy ASMX server included.
 */
export { CONTRACT_CHECKS, V2_CHECKS } from './checks';
export { createContext, DEFAULT_NAMESPACE, runContractChecks, type RunOptions } from './runner';
export { runCli, type CliOutput } from './cli';
export { jsonReport, resultLine, summaryLine } from './reporter';
export type { Binding, Check, CheckContext, CheckOptions, CheckReport, CheckResult, ServiceTarget } from './types';
