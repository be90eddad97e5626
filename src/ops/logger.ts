/**
 * The one logger of the process: pino, JSON lines, level from LOG_LEVEL. Every component logs through
 * it (requests: request-log.ts; start, stop and workers: server.ts, cluster.ts). Nothing logged may
 * carry a secret or a request body: headers are never logged, and these paths are redacted anyway in
 * case a caller passes one by mistake. With tracing on, a line written inside a trace names its trace
 * and span (trace_id, span_id), as the request line does (request-log.ts).
 */
import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Settings } from '../config';
import { activeTraceIds, tracingOn } from '../telemetry/spans';

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
      mixin: tracingOn() ? activeTraceIds : undefined,
    },
    destination ?? stdout(),
  );
}

let stdoutDestination: DestinationStream | undefined;

/**
 * One stdout stream per process. The lines of one turn of the event loop go out together in one
 * synchronous write at its end (setImmediate), and whatever is left when the process exits is written
 * then ('exit' handlers run on process.exit(), at the natural end and after an uncaught exception's
 * handler): under load a write per turn instead of a system call per request
 * (docs/operations.md, "Logs"). A line waits at most for the rest of its turn.
 */
function stdout(): DestinationStream {
  if (stdoutDestination === undefined) {
    const batch = new TurnBatch(pino.destination({ dest: 1, sync: true }));
    process.on('exit', () => batch.flush());
    stdoutDestination = batch;
  }
  return stdoutDestination;
}

/** Lines written during one turn of the event loop, handed to `sink` in one write when it ends. */
export class TurnBatch implements DestinationStream {
  private text = '';

  constructor(private readonly sink: DestinationStream) {}

  write(line: string): void {
    if (this.text === '') setImmediate(() => this.flush());
    this.text += line;
  }

  /** Writes what waits now (at the end of the turn, or at exit). */
  flush(): void {
    const text = this.text;
    this.text = '';
    if (text !== '') this.sink.write(text);
  }
}

/** The levels a LineWriter writes: the request lines' (an error line goes through the logger, for its err). */
type LineLevel = 'debug' | 'info';

/** Flat values only: strings and numbers, undefined left out. */
type LineFields = Readonly<Record<string, string | number | undefined>>;

export type LineWriter = (level: LineLevel, fields: LineFields, msg: string) => void;

/**
 * A writer of the logger's own lines for callers that log flat values many times a second (the
 * request line, request-log.ts): the same level label, time, base fields, key order and destination
 * as logger[level](fields, msg), built in one string without pino's per-call work (serialisers,
 * redaction of nested paths a flat line cannot have). It reads the logger's configuration through
 * pino.symbols, which pino exports for integrations; test/ops/request-log.test.ts compares its lines
 * with the logger's.
 */
export function lineWriter(logger: Logger): LineWriter {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as DestinationStream;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const time = internals[pino.symbols.timeSym] as () => string;
  // The same few keys on every line: each written as JSON once.
  const keyTexts = new Map<string, string>();
  const keyText = (key: string) => {
    let text = keyTexts.get(key);
    if (text === undefined) keyTexts.set(key, (text = `,${JSON.stringify(key)}:`));
    return text;
  };
  return (level, fields, msg) => {
    let line = `{"level":"${level}"${time()}${bindings}`;
    for (const key in fields) {
      const value = fields[key];
      if (value !== undefined) line += keyText(key) + (typeof value === 'number' ? String(value) : JSON.stringify(value));
    }
    stream.write(`${line},"msg":${JSON.stringify(msg)}}\n`);
  };
}

