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

/** The settings from the environment, or undefined once the reason they are not valid is written. */
export function settingsOrSay(command: string, env: NodeJS.ProcessEnv, io: Output): Settings | undefined {
  try {
    return loadSettings(env);
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    io.err(`${command}: ${err.message}`);
    return undefined;
  }
}
