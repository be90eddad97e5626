/**
 * The command line of npm run shadow and npm run replay (docs/cutover.md): one table, so that an
 * option means the same in both commands; each takes the ones listed for it. Spellings of before
 * the table are kept as aliases, each meaning what it meant in its command.
 */
import fs from 'node:fs';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { redactedUrl } from '../src/config';
import type { TlsOptions } from '../src/cutover/forward';
import { trafficSettings, type TrafficSettings } from '../src/cutover/traffic';
import { UsageError } from './output';

export type Command = 'shadow' | 'replay';

interface Spec {
  type: 'string' | 'boolean';
  multiple?: true;
  commands: readonly Command[];
  /** How the usage line shows it. */
  usage: string;
}

const BOTH: readonly Command[] = ['shadow', 'replay'];

const OPTIONS = {
  primary: { type: 'string', commands: ['shadow'], usage: '--primary <url>' },
  candidate: { type: 'string', commands: BOTH, usage: '--candidate <url>' },
  secondary: { type: 'string', commands: ['shadow'], usage: '[--secondary <url>]' },
  'listen-host': { type: 'string', commands: ['shadow'], usage: '[--listen-host 0.0.0.0]' },
  port: { type: 'string', commands: ['shadow'], usage: '[--port 8081]' },
  'recorded-host': { type: 'string', commands: ['replay'], usage: '[--recorded-host <name>]' },
  rate: { type: 'string', commands: ['replay'], usage: '[--rate <requests a second>]' },
  out: { type: 'string', commands: BOTH, usage: '[--out <dir>]' },
  concurrency: { type: 'string', commands: BOTH, usage: '[--concurrency 4]' },
  'mirror-writes': { type: 'boolean', commands: BOTH, usage: '[--mirror-writes]' },
  sample: { type: 'string', commands: ['shadow'], usage: '[--sample 1]' },
  record: { type: 'string', commands: ['shadow'], usage: '[--record <file.har>]' },
  ignore: { type: 'string', multiple: true, commands: BOTH, usage: '[--ignore <path>]...' },
  'max-file-mb': { type: 'string', commands: BOTH, usage: '[--max-file-mb 256]' },
  'shadow-paths-public': { type: 'boolean', commands: ['shadow'], usage: '[--shadow-paths-public]' },
  ca: { type: 'string', commands: BOTH, usage: '[--ca <file>]' },
  'base-path': { type: 'string', commands: BOTH, usage: '[--base-path <path>]' },
  'api-namespace': { type: 'string', commands: BOTH, usage: '[--api-namespace <uri>]' },
  'sync-namespace': { type: 'string', commands: BOTH, usage: '[--sync-namespace <uri>]' },
  'api-v2-namespace': { type: 'string', commands: BOTH, usage: '[--api-v2-namespace <uri>]' },
  'sync-v2-namespace': { type: 'string', commands: BOTH, usage: '[--sync-v2-namespace <uri>]' },
  insecure: { type: 'boolean', commands: BOTH, usage: '[--insecure]' },
} satisfies Record<string, Spec>;

export type OptionName = keyof typeof OPTIONS;

/** Old spellings, per command: `--host` was the listen address of shadow and the recorded host of replay. */
const ALIASES: Record<Command, Partial<Record<string, OptionName>>> = {
  shadow: { host: 'listen-host' },
  replay: { host: 'recorded-host', target: 'candidate', 'include-writes': 'mirror-writes' },
};

export interface Parsed {
  values: Partial<Record<OptionName, string | boolean | string[]>>;
  positionals: string[];
}

export function usage(command: Command): string {
  const first = command === 'replay' ? ' <file.har>' : '';
  const options = (Object.values(OPTIONS) as Spec[])
    .filter((spec) => spec.commands.includes(command))
    .map((spec) => spec.usage);
  return `usage: npm run ${command} --${first} ${options.join(' ')}`;
}

/** The options `command` takes from `argv`, aliases read as the option they stand for; a UsageError for anything else. */
export function parseOptions(command: Command, argv: string[]): Parsed {
  const specs: Record<string, Spec> = OPTIONS;
  const aliases = Object.entries(ALIASES[command]) as [string, OptionName][];
  const config: ParseArgsOptionsConfig = {};
  for (const [name, spec] of Object.entries(specs))
    if (spec.commands.includes(command)) config[name] = { type: spec.type, multiple: spec.multiple ?? false };
  for (const [alias, name] of aliases) config[alias] = config[name];
  let parsed: { values: Record<string, string | boolean | (string | boolean)[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: command === 'replay', strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const values = { ...parsed.values };
  for (const [alias, name] of aliases) {
    if (values[alias] === undefined) continue;
    if (values[name] !== undefined) throw new UsageError(`--${alias} and --${name} are the same option: give one`);
    values[name] = values[alias];
    delete values[alias];
  }
  return { values, positionals: parsed.positionals };
}

export function text(parsed: Parsed, name: OptionName): string | undefined {
  return parsed.values[name] as string | undefined;
}

export function flag(parsed: Parsed, name: OptionName): boolean {
  return parsed.values[name] === true;
}

export function list(parsed: Parsed, name: OptionName): string[] {
  return (parsed.values[name] as string[] | undefined) ?? [];
}

/** An http or https URL; a UsageError if `required` and missing. */
export function url(parsed: Parsed, name: OptionName, required: boolean): string | undefined {
  const value = text(parsed, name);
  if (value === undefined && required) throw new UsageError(`--${name} <http or https URL> is required`);
  if (value !== undefined && !/^https?:\/\/[^/]/.test(value))
    throw new UsageError(`--${name} ${redactedUrl(value)}: not an http or https URL`);
  return value;
}

/** A number from `min` to `max` (a whole one if `whole`), or `fallback` when not given. */
export function number(
  parsed: Parsed,
  name: OptionName,
  fallback: number,
  { min, max, whole }: { min: number; max: number; whole: boolean },
): number {
  const value = text(parsed, name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
    throw new UsageError(`--${name} ${value}: ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`);
  }
  return n;
}

/** --ca and --insecure. */
export function tls(parsed: Parsed): TlsOptions {
  const ca = text(parsed, 'ca');
  return { ca: ca === undefined ? undefined : fs.readFileSync(ca), insecure: flag(parsed, 'insecure') };
}

/** --max-file-mb in bytes. */
export function maxFileBytes(parsed: Parsed, fallback: number): number {
  const MiB = 1024 * 1024;
  return number(parsed, 'max-file-mb', fallback / MiB, { min: 1, max: 1024 * 1024, whole: true }) * MiB;
}

/** The servers' settings that decide which operation a request calls: each option stands for the server variable of the same name. */
export function serverSettings(parsed: Parsed): TrafficSettings {
  return trafficSettings({
    BASE_PATH: text(parsed, 'base-path'),
    API_NAMESPACE: text(parsed, 'api-namespace'),
    SYNC_NAMESPACE: text(parsed, 'sync-namespace'),
    API_V2_NAMESPACE: text(parsed, 'api-v2-namespace'),
    SYNC_V2_NAMESPACE: text(parsed, 'sync-v2-namespace'),
  });
}
