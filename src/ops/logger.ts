/**
 * The one logger of the process: pino, JSON lines, level from LOG_LEVEL. Every component logs through
 * it (requests: request-log.ts; start, stop and workers: server.ts, cluster.ts). Nothing logged may
 * carry a secret or a request body: headers are never logged, and these paths are redacted anyway in
 * case a caller passes one by mistake.
 */
import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Settings } from '../config';

export type { Logger } from 'pino';

const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'password',
  '*.password',
];

/** destination: where the lines go (stdout by default; tests pass a stream to read them). */
export function createLogger(settings: Pick<Settings, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: settings.logLevel,
      base: { pid: process.pid, hostname: os.hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination ?? stdout(),
  );
}

let stdoutDestination: DestinationStream | undefined;

/** One synchronous stdout stream per process: no line is lost when the process exits right after. */
function stdout(): DestinationStream {
  stdoutDestination ??= pino.destination({ dest: 1, sync: true });
  return stdoutDestination;
}
