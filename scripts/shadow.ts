/**
 * npm run shadow -- --primary <url> --candidate <url> [--secondary <url>] [--port 8081] [--host 0.0.0.0] [--out <dir>]
 *                   [--mirror-writes] [--ignore <path>]... [--ca <file>] [--insecure]
 *
 * A reverse proxy in front of two servers (docs/migration.md, "Shadow mode"): clients are served by
 * the primary, reads are mirrored to the candidate and the answers compared into the report in --out.
 * Runs until stopped (SIGINT, SIGTERM), then writes the report a last time.
 * Exit codes: 0 stopped, 2 bad arguments.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSettings } from '../src/config';
import { connectionSettings, SHADOW_DEFAULTS, startShadow, type ShadowOptions } from '../src/migration/shadow';
import { ConnectionGuard } from '../src/process/connection-guard';
import { consoleOutput, exitWithMain, type Output } from './output';

const USAGE = 'usage: npm run shadow -- --primary <url> --candidate <url> [--secondary <url>] [--port 8081] [--host 0.0.0.0] [--out <dir>] [--mirror-writes] [--ignore <path>]... [--ca <file>] [--insecure]';

function shadowOptions(argv: string[]): ShadowOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      primary: { type: 'string' },
      candidate: { type: 'string' },
      secondary: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      out: { type: 'string' },
      'mirror-writes': { type: 'boolean' },
      ignore: { type: 'string', multiple: true },
      ca: { type: 'string' },
      insecure: { type: 'boolean' },
      'shadow-paths-public': { type: 'boolean' },
    },
    strict: true,
  });
  if (values.primary === undefined || values.candidate === undefined) throw new Error('--primary and --candidate are required');
  for (const url of [values.primary, values.candidate, ...(values.secondary === undefined ? [] : [values.secondary])]) if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`${url}: not an http or https URL`);
  const port = values.port === undefined ? SHADOW_DEFAULTS.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${values.port}: not a port number`);
  // The server's own timeouts and ceiling on connections, from the same variables (docs/operations.md).
  const connections = connectionSettings(loadSettings(process.env));
  return {
    ...SHADOW_DEFAULTS,
    connections,
    guard: new ConnectionGuard(connections),
    primary: values.primary,
    candidate: values.candidate,
    secondary: values.secondary,
    port,
    host: values.host ?? SHADOW_DEFAULTS.host,
    out: values.out ?? SHADOW_DEFAULTS.out,
    mirrorWrites: values['mirror-writes'] ?? false,
    ignore: values.ignore ?? [],
    ca: values.ca === undefined ? undefined : fs.readFileSync(values.ca),
    insecure: values.insecure ?? false,
    ownPathsPublic: values['shadow-paths-public'] ?? false,
  };
}

export async function main(argv: string[], io: Output = consoleOutput): Promise<number> {
  let options: ShadowOptions;
  try {
    options = shadowOptions(argv);
  } catch (err) {
    io.err(`shadow: ${(err as Error).message}`);
    io.err(USAGE);
    return 2;
  }
  const shadow = await startShadow(options);
  io.out(`shadow: listening on ${options.host}:${shadow.port}, primary ${options.primary}, candidate ${options.candidate}, report in ${options.out}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await shadow.close();
  io.out(`shadow: stopped; report in ${options.out}`);
  return 0;
}

if (require.main === module) exitWithMain('shadow', main);
