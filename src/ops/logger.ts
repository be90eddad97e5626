/** The one logger of the process (pino, JSON lines); headers and bodies are never logged, these paths redacted in case. */
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

/** One stdout stream per process, written once per turn of the event loop and at exit (docs/operations.md, "Logs"). */
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

/** Flat values only (undefined left out): an error line goes through the logger, for its err. */
export type LineWriter = (level: 'debug' | 'info', fields: Readonly<Record<string, string | number | undefined>>, msg: string) => void;

/** The logger's own lines without pino's per-call work, for the request line (pino.symbols; a test compares the two). */
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

