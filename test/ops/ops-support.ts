/**
 * Helpers for the operations tests: the real app on a fresh database with its log lines captured
 * through the logger's destination (no mock: pino writes every line to it), and SOAP envelopes.
 */
import type { App } from '../../src/app';
import { createApp } from '../../src/app';
import { loadSettings, type Settings } from '../../src/config';
import type { Engine, EngineKind } from '../../src/db/engine';
import type { ServerState } from '../../src/monitoring/probes';
import { freshEngine } from '../support/engines';

export type LogLine = Record<string, unknown> & { level: string; msg: string };

export interface LogCapture {
  destination: { write(line: string): void };
  lines: LogLine[];
  /** The first line that matches, waiting briefly: a request's line is written when its answer finishes. */
  find(match: (line: LogLine) => boolean): Promise<LogLine>;
}

export function captureLog(): LogCapture {
  const lines: LogLine[] = [];
  return {
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
    lines,
    async find(match) {
      for (let i = 0; i < 100; i++) {
        const found = lines.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no log line matched; lines:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`);
    },
  };
}

export interface OpsApp {
  app: App;
  engine: Engine;
  settings: Settings;
  log: LogCapture;
  state: ServerState;
  close(): Promise<void>;
}

export async function startOpsApp(kind: EngineKind = 'sqlite', env: Record<string, string> = {}): Promise<OpsApp> {
  const settings = loadSettings({ LOG_LEVEL: 'info', ...env });
  const engine = await freshEngine(kind);
  const log = captureLog();
  const state: ServerState = { stopping: false };
  const app = createApp({ settings, engine, logDestination: log.destination, state });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await engine.close();
  };
  return { app, engine, settings, log, state, close };
}

export const SOAP11 = { ns: 'http://schemas.xmlsoap.org/soap/envelope/', type: 'text/xml; charset=utf-8' };
export const SOAP12 = { ns: 'http://www.w3.org/2003/05/soap-envelope', type: 'application/soap+xml; charset=utf-8' };

export function soapEnvelope(version: typeof SOAP11, operation: string, params = ''): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${version.ns}"><soap:Body>` +
    `<${operation} xmlns="http://tempuri.org/">${params}</${operation}></soap:Body></soap:Envelope>`
  );
}

export const MAIN = '/API/MobileAppWebService.asmx';
export const SYNC = '/API/SyncCustomers.asmx';
