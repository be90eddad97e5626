import { loadSettings, SettingsError, type Settings } from '../src/config';

/** Where a command-line script writes: lines to stdout and stderr by default, captured in tests. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A command line the script does not take. */
export class UsageError extends Error {}

/**
 * What `read` makes of the command line and the settings; a UsageError or SettingsError is written as
 * `<command>: <message>` (then `usage`, when given) and gives undefined: the script exits with code 2.
 */
export function readOrSay<T>(command: string, io: Output, read: () => T, usage?: string): T | undefined {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof UsageError || err instanceof SettingsError)) throw err;
    io.err(`${command}: ${err.message}`);
    if (usage !== undefined) io.err(usage);
    return undefined;
  }
}

/** The settings from the environment, or undefined once the reason they are not valid is written. */
export function settingsOrSay(command: string, env: NodeJS.ProcessEnv, io: Output): Settings | undefined {
  return readOrSay(command, io, () => loadSettings(env));
}

/**
 * Runs `main` as the process, for a script run rather than imported: the process exits with its code,
 * or with 1 after `<command>: <message>` when it throws.
 */
export function exitWithMain(command: string, main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${command}: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
