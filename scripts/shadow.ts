/**
 * npm run shadow -- --primary <url> --candidate <url> [--secondary <url>] [--listen-host 0.0.0.0]
 *                   [--port 8081] [--out <dir>] ... (scripts/cutover-options.ts)
 *
 * A reverse proxy in front of two servers (docs/cutover.md, "Shadow mode"): clients are served by
 * the primary, reads are mirrored to the candidate and the answers compared into the report in --out.
 * Runs until stopped (SIGINT, SIGTERM), then writes the report a last time.
 * Exit codes: 0 stopped, 1 another failure (named), 2 bad arguments or settings.
 */
import { loadSettings, redactedUrl } from '../src/config';
import { SHADOW_DEFAULTS, startShadow, type ShadowOptions } from '../src/cutover/shadow';
import {
  flag,
  list,
  maxFileBytes,
  number,
  parseOptions,
  serverSettings,
  text,
  tls,
  url,
  usage,
} from './cutover-options';
import { consoleOutput, exitWithMain, readOrSay, type Output } from './output';

const USAGE = usage('shadow');

function shadowOptions(argv: string[]): ShadowOptions {
  const parsed = parseOptions('shadow', argv);
  const primary = url(parsed, 'primary', true)!;
  const candidate = url(parsed, 'candidate', true)!;
  return {
    ...SHADOW_DEFAULTS,
    ...tls(parsed),
    primary,
    candidate,
    secondary: url(parsed, 'secondary', false),
    port: number(parsed, 'port', SHADOW_DEFAULTS.port, { min: 0, max: 65535, whole: true }),
    host: text(parsed, 'listen-host') ?? SHADOW_DEFAULTS.host,
    out: text(parsed, 'out') ?? SHADOW_DEFAULTS.out,
    concurrency: number(parsed, 'concurrency', SHADOW_DEFAULTS.concurrency, { min: 1, max: 256, whole: true }),
    mirrorWrites: flag(parsed, 'mirror-writes'),
    record: text(parsed, 'record'),
    sample: number(parsed, 'sample', SHADOW_DEFAULTS.sample, { min: 0, max: 1, whole: false }),
    ignore: list(parsed, 'ignore'),
    maxFileBytes: maxFileBytes(parsed, SHADOW_DEFAULTS.maxFileBytes),
    ownPathsPublic: flag(parsed, 'shadow-paths-public'),
    serverSettings: serverSettings(parsed),
    // The server's own timeouts and ceiling on connections, from the same variables (docs/operations.md).
    connections: loadSettings(process.env),
  };
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  const options = readOrSay('shadow', io, () => shadowOptions(argv), USAGE);
  if (options === undefined) return 2;
  const shadow = await startShadow(options);
  io.out(
    `shadow: listening on ${options.host}:${shadow.port}, primary ${redactedUrl(options.primary)}, candidate ${redactedUrl(options.candidate)}, report in ${options.out}`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await shadow.close();
  io.out(`shadow: stopped; report in ${options.out}`);
  return 0;
}

if (require.main === module) exitWithMain('shadow', main);
